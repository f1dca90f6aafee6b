// The repository's executable files and shell commands (issue 19, item 5), with the real bash
// tool, bubblewrap and git: the shallowest ones are bound read-only (the write fails with the OS
// error, and the note names the file and says what to do), the rest are put back when a command
// changed them (and the model is told); a `git checkout` that would change a bound one stops on
// it and the note says so. Whose change it was: the user's edit between commands stays, but one
// made while a background process of a command still runs is put back, as is what a background
// process writes after its command returned and what a command changes while another one starts.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolOutput } from '@dsh/contracts'
import { ToolProcesses } from '@dsh/tools'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { SandboxLauncher } from '../src/index.ts'
import { runBash, treeLauncher } from './bash-run.ts'
import { MAX_BOUND_EXECUTABLES } from '../src/executable-guard.ts'

let tree: TempTree
let launcher: SandboxLauncher
let processes: ToolProcesses
const warnings: string[] = []
const tools = Array.from({ length: 20 }, (_, n) => `tools/t${String(n).padStart(2, '0')}`)

const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: tree.path('repo'), encoding: 'utf8' })

beforeEach(async () => {
  const layout: Record<string, string | null> = { 'repo/run.sh': '#!/bin/sh\necho run\n', 'repo/notes.txt': 'n\n', 'tmp/': null, 'dsh/': null }
  for (const name of tools) layout[`repo/${name}`] = `#!/bin/sh\necho ${name}\n`
  tree = await tempTree(layout)
  for (const name of ['run.sh', ...tools]) chmodSync(tree.path(`repo/${name}`), 0o755)
  git('init', '-q')
  git('add', '.')
  git('commit', '-qm', 'one')
  warnings.length = 0
  launcher = treeLauncher(tree, warnings)
  processes = new ToolProcesses({ graceMs: 500 })
})
afterEach(async () => {
  await processes.endAll()
  launcher.dispose()
  await tree.dispose()
})

const bash = (command: string): Promise<ToolOutput> => runBash({ repo: tree.path('repo'), launcher, processes }, command)
const content = (name: string): string => readFileSync(tree.path(`repo/${name}`), 'utf8')
const original = (name: string): string => `#!/bin/sh\necho ${name === 'run.sh' ? 'run' : name}\n`
/** The first launch binds run.sh and the shallowest tools; the last tools are guarded by content. */
const guarded = tools.slice(MAX_BOUND_EXECUTABLES - 1)

describe('executable files and shell commands', () => {
  it('a bound one cannot be written, chmodded or removed; a guarded one is put back; the model is told which', async () => {
    const last = guarded.at(-1) ?? ''
    const result = await bash(`echo evil >> run.sh; chmod -x run.sh; rm -f run.sh; echo evil >> ${last}; echo ok > notes.txt; echo done`)
    expect(content('run.sh')).toBe(original('run.sh'))
    expect(content(last)).toBe(original(last))
    expect(content('notes.txt')).toBe('ok\n')
    expect(result.content).toContain('bash: line 2: run.sh: Read-only file system')
    expect(result.content).toContain("rm: cannot remove 'run.sh': Device or resource busy")
    const repo = tree.path('repo')
    expect(result.content).toContain(`[The sandbox refused to change ${repo}/run.sh: inside the writable roots, the files that programs outside the sandbox run later are read-only to shell commands`)
    const [stamp = ''] = execFileSync('ls', [tree.path('dsh/quarantine')], { encoding: 'utf8' }).split('\n')
    const moved = tree.path(`dsh/quarantine/${stamp}/repo/${last}`)
    expect(result.content).toContain(`[dsh reverted what a sandboxed command created or changed: ${repo}/${last} (put back as it was; the changed one moved to ${moved}).`)
    expect(readFileSync(moved, 'utf8')).toBe(`${original(last)}evil\n`)
    expect(warnings).toContain(`dsh: moved ${repo}/${last}, which a sandboxed command changed (a protected path), to ${moved}`)
  })

  it('git checkout stops on a bound executable, and the note says to check git status', async () => {
    git('checkout', '-qb', 'other')
    writeFileSync(tree.path('repo/run.sh'), '#!/bin/sh\necho other\n')
    git('commit', '-qam', 'two')
    git('checkout', '-q', '-')
    const result = await bash('git checkout -q other; git status --short')
    expect(result.content).toContain("error: unable to unlink old 'run.sh': Device or resource busy")
    expect(result.content).toContain('may have left the work tree partly changed: check git status')
    expect(content('run.sh')).toBe(original('run.sh'))
  })

  it("the user's change between commands stays; one made while a background process runs is put back", async () => {
    const [first = '', second = ''] = guarded
    await bash('echo quiet')
    writeFileSync(tree.path(`repo/${first}`), '#!/bin/sh\necho the user\n')
    const kept = await bash(`cat ${first}`)
    expect(kept.content).toBe('#!/bin/sh\necho the user\n\n[Exit code: 0]')
    await bash('sleep 30 & echo started')
    writeFileSync(tree.path(`repo/${second}`), '#!/bin/sh\necho while a sandbox runs\n')
    const next = await bash(`cat ${second}`)
    expect(next.content).toContain(`${original(second)}\n[Exit code: 0]\n[dsh reverted what a sandboxed command created or changed: ${tree.path(`repo/${second}`)} (put back as it was;`)
  })

  it("a change made by a command still running beside another is never taken as the user's", async () => {
    const [first = ''] = guarded
    const running = bash(`echo evil >> ${first}; touch wrote; while [ ! -e finish ]; do sleep 0.05; done; echo ended`)
    while (!existsSync(tree.path('repo/wrote'))) await new Promise((resolve) => setTimeout(resolve, 20))
    const beside = await bash('echo beside')
    writeFileSync(tree.path('repo/finish'), '')
    const ended = await running
    expect(content(first)).toBe(original(first))
    expect(`${beside.content}\n${ended.content}`).toContain(`${tree.path(`repo/${first}`)} (put back as it was;`)
  })

  it('what a background process writes after its command returned is put back before the next command', async () => {
    const [first = ''] = guarded
    await bash(`(while [ ! -e go ]; do sleep 0.05; done; echo evil >> ${first}) > /dev/null 2>&1 & echo started`)
    // The command has returned: now the background process writes, between the commands.
    writeFileSync(tree.path('repo/go'), '')
    while (!content(first).includes('evil')) await new Promise((resolve) => setTimeout(resolve, 20))
    const next = await bash(`cat ${first}`)
    expect(next.content).toContain(`${original(first)}\n[Exit code: 0]\n[dsh reverted what a sandboxed command created or changed: ${tree.path(`repo/${first}`)}`)
    expect(content(first)).toBe(original(first))
  })
})
