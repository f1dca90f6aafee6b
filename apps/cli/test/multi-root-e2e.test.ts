// Several repositories in one session, end to end through the built binary with a scripted model
// and two temporary git repositories: writes in an additional root succeed, writes outside every
// root fail with the list of allowed roots, the additional root's instructions arrive from the
// first step (top level) and after a touch (nested), --add-dir lasts for its session only (in a
// chat: for every session the chat switches to), and
// without roots the request log is byte-identical to a run with the plugin turned off.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ModelScript } from '@dsh/llm-scripted'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, runDsh, sessionIdOf, writeScript, type RequestBody } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function repos(): Promise<void> {
  tree = await tempTree({
    'repo-a/AGENTS.md': 'A rule: keep it small.\n',
    'repo-a/src/a.ts': 'export const a = 1\n',
    'repo-b/AGENTS.md': 'B top rule: use tabs.\n',
    'repo-b/src/AGENTS.md': 'B src rule: no default exports.\n',
    'repo-b/src/deep/AGENTS.md': 'B deep rule: pure functions only.\n',
    'repo-b/src/deep/entry.ts': 'export const entry = 1\n',
    'repo-c/AGENTS.md': 'C rule: document everything.\n',
    'outside/': null,
    'tmp/': null,
    'scripts/': null,
  })
  for (const repo of ['repo-a', 'repo-b']) execFileSync('git', ['init', '-q', tree.path(repo)])
}

let count = 0
async function dsh(args: readonly string[], script?: ModelScript) {
  const log = tree.path(`requests-${++count}.jsonl`)
  const model = script === undefined ? [] : ['--model', `scripted:${writeScript(tree.path('scripts'), `s${count}.json`, script)}`, '--request-log', log]
  const [command = '', ...rest] = args
  const result = await runDsh(['--dsh-home', tree.path('home'), command, ...model, ...rest], { cwd: tree.path('repo-a'), env: { TMPDIR: tree.path('tmp') } })
  return { ...result, requests: script === undefined || !existsSync(log) ? [] : readRequests(log), log }
}

const users = (body: RequestBody | undefined): string[] => (body?.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content ?? '')
const tools = (body: RequestBody | undefined): string[] => (body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content ?? '')
const write = (file_path: string, content: string) => ({ toolCalls: [{ name: 'write', arguments: { file_path, content } }] })

describe('several repositories in one session', () => {
  it('writes in a registered root, refuses writes outside with the allowed roots, and brings its instructions', async () => {
    await repos()
    const added = await dsh(['roots', 'add', '../repo-b', '--alias', 'lib'])
    expect(added).toMatchObject({ code: 0, stdout: `Added additional root 1: ${tree.path('repo-b')} [lib]\n` })
    const b = (path: string) => tree.path(`repo-b/${path}`)
    const run = await dsh(['run', 'change both repositories'], {
      responses: [
        { toolCalls: [{ name: 'read', arguments: { file_path: b('src/deep/entry.ts') } }] },
        write(b('src/deep/made.ts'), 'export const made = 1\n'),
        write(tree.path('outside/x.txt'), 'no'),
        write('src/made.ts', 'export const here = 1\n'),
        { text: 'done' },
      ],
    })
    expect(run.stderr).toMatch(/^session: \S+\n$/)
    expect(run).toMatchObject({ code: 0, stdout: 'done\n' })
    expect(readFileSync(b('src/deep/made.ts'), 'utf8')).toBe('export const made = 1\n')
    expect(readFileSync(tree.path('repo-a/src/made.ts'), 'utf8')).toBe('export const here = 1\n')
    expect(existsSync(tree.path('outside/x.txt'))).toBe(false)
    const [first, second, , fourth] = run.requests
    const firstUsers = users(first)
    expect(firstUsers[0]).toBe('change both repositories')
    expect(firstUsers[1]).toContain('A rule: keep it small.')
    expect(firstUsers[2]).toContain(`- ${tree.path('repo-b')} (alias "lib")`)
    expect(firstUsers[2]).toContain('B top rule: use tabs.')
    expect(firstUsers.join('\n')).not.toContain('B src rule')
    expect(firstUsers.join('\n')).not.toContain('B deep rule')
    const afterTouch = users(second).at(-1) ?? ''
    expect(afterTouch).toContain(`Additional instructions from: ${b('src/AGENTS.md')}`)
    expect(afterTouch).toContain('B src rule: no default exports.')
    expect(afterTouch).toContain('B deep rule: pure functions only.')
    expect(second?.messages.at(-2)?.role).toBe('tool')
    expect(tools(fourth).at(-1)).toBe(`Cannot write ${tree.path('outside/x.txt')}: it is outside the writable roots (${tree.path('repo-a')}, ${tree.path('tmp')}, ${tree.path('repo-b')}). Choose a path inside one of them.`)
  })

  it('--add-dir lasts for its session only: not persisted, not granted to other sessions, revoked on resume', async () => {
    await repos()
    const c = (path: string) => tree.path(`repo-c/${path}`)
    const first = await dsh(['run', '--add-dir', '../repo-c', 'write in c'], { responses: [write(c('one.txt'), '1'), { text: 'one' }] })
    expect(first.code).toBe(0)
    expect(readFileSync(c('one.txt'), 'utf8')).toBe('1')
    expect(users(first.requests[0]).at(-1)).toContain('C rule: document everything.')
    const listed = await dsh(['roots', 'list', '--json'])
    expect(JSON.parse(listed.stdout)).toEqual({ primary: tree.path('repo-a'), roots: [] })
    const other = await dsh(['run', 'write in c again'], { responses: [write(c('two.txt'), '2'), { text: 'two' }] })
    expect(existsSync(c('two.txt'))).toBe(false)
    expect(tools(other.requests[1]).at(-1)).toContain('outside the writable roots')
    expect(users(other.requests[0]).join('\n')).not.toContain('C rule')
    const resumed = await dsh(['run', '--resume', sessionIdOf(first.stderr), 'and once more'], { responses: [write(c('three.txt'), '3'), { text: 'three' }] })
    expect(resumed.code).toBe(0)
    expect(existsSync(c('three.txt'))).toBe(false)
    expect(users(resumed.requests[0]).at(-1)).toContain(`Workspace root revoked: ${tree.path('repo-c')}`)
  })

  it("a chat's --add-dir directories are granted to the sessions /resume and /new switch to", async () => {
    await repos()
    const earlier = await dsh(['run', 'an earlier session'], { responses: [{ text: 'earlier' }] })
    // Sessions in other directories: one working in repo-c itself, one where repo-c is registered.
    const inC = await dsh(['run', '--cwd', '../repo-c', 'in c'], { responses: [{ text: 'in c' }] })
    await dsh(['roots', 'add', '--cwd', '../repo-b', '../repo-c'])
    const inB = await dsh(['run', '--cwd', '../repo-b', 'in b'], { responses: [{ text: 'in b' }] })
    const c = (path: string) => tree.path(`repo-c/${path}`)
    const script = writeScript(tree.path('scripts'), 'chat.json', { responses: [{ text: 'first' }, write(c('resumed.txt'), 'r'), { text: 'written' }] })
    const log = tree.path('chat-requests.jsonl')
    const input = [`hello`, `/resume ${sessionIdOf(earlier.stderr)}`, 'write in c', 'y', `/resume ${sessionIdOf(inC.stderr)}`, `/resume ${sessionIdOf(inB.stderr)}`, '/new', ''].join('\n')
    const chat = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--model', `scripted:${script}`, '--request-log', log, '--add-dir', '../repo-c'], input, { cwd: tree.path('repo-a'), env: { TMPDIR: tree.path('tmp') } })
    expect(chat.code).toBe(0)
    const shown = chat.stdout.split('\n').filter((line) => line.includes('--add-dir'))
    expect(shown).toEqual([
      `this chat's --add-dir directories are granted to it too: ${tree.path('repo-c')}`,
      `--add-dir ${tree.path('repo-c')}: equals-primary: ${tree.path('repo-c')} is the primary root itself (the session's working directory) (not granted to this session)`,
      `this chat's --add-dir directories are granted to it too: ${tree.path('repo-c')}`,
    ])
    expect(readFileSync(c('resumed.txt'), 'utf8')).toBe('r')
    const [, resumed] = readRequests(log)
    expect(users(resumed).at(-1)).toContain(`- ${tree.path('repo-c')}\n`)
    expect(users(resumed).at(-1)).toContain('C rule: document everything.')
  })

  it("the chat's /context lists the registered roots with their instruction files, as dsh context does", async () => {
    await repos()
    const script = writeScript(tree.path('scripts'), 'context.json', { responses: [{ text: 'ok' }] })
    const input = `/add-dir ${tree.path('repo-b')}\n/context\n/exit\n`
    const chat = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--model', `scripted:${script}`], input, { cwd: tree.path('repo-a'), env: { TMPDIR: tree.path('tmp') } })
    expect(chat.code).toBe(0)
    const context = chat.stdout.slice(chat.stdout.indexOf('Instruction files for new sessions here:'))
    expect(context).toContain('  Additional workspace roots (dsh roots list):\n')
    expect(context).toContain(`  1. ${tree.path('repo-b')} — available\n`)
    expect(context).toContain(`${tree.path('repo-b')}/AGENTS.md: top level, sent at the first step (`)
    expect(context.indexOf('Additional workspace roots')).toBeLessThan(context.indexOf('In this session:'))
  })

  it('refuses a bad --add-dir before creating a session (exit 2, code and explanation)', async () => {
    await repos()
    writeFileSync(tree.path('file.txt'), 'x')
    const notDir = await dsh(['run', '--add-dir', '../file.txt', 'hi'], { responses: [{ text: 'never' }] })
    expect(notDir).toMatchObject({ code: 2, stderr: `dsh: --add-dir ${tree.path('file.txt')}: not-a-directory: ${tree.path('file.txt')} is not a directory\n`, requests: [] })
    const inside = await dsh(['run', '--add-dir', 'src', 'hi'], { responses: [{ text: 'never' }] })
    expect(inside.code).toBe(2)
    expect(inside.stderr).toContain('primary-overlap')
    expect(existsSync(tree.path('home/sessions')) ? readdirSync(tree.path('home/sessions')) : []).toEqual([])
  })

  it('without roots the request log is byte-identical to a run with the plugin turned off', async () => {
    await repos()
    writeFileSync(tree.path('off.yaml'), 'multiRootWorkspace:\n  enabled: false\n')
    const script: ModelScript = { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'src/a.ts' } }] }, write('src/b.ts', 'b\n'), { text: 'done' }] }
    const off = await dsh(['run', '--config', tree.path('off.yaml'), 'same prompt'], script)
    rmSync(tree.path('repo-a/src/b.ts'))
    const on = await dsh(['run', 'same prompt'], script)
    expect([off.code, on.code]).toEqual([0, 0])
    expect(on.requests).toHaveLength(3)
    expect(readFileSync(on.log, 'utf8')).toBe(readFileSync(off.log, 'utf8'))
  })
})
