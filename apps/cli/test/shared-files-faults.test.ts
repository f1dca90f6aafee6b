// Faults of the files several dsh processes share in $DSH_HOME (issue 22), through the built
// binary with real processes: concurrent `dsh docs switches` (F1) and `dsh roots remove` (F10),
// an unreadable roots registry during `dsh run` (F11), temp files of writers killed mid-write
// (F14) and a full disk under the registry and the settings file (F15).
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { dshBinary, runDsh, spawnCollect, testEnv, writeScript } from './run-dsh.ts'

let tree: TempTree
const mounted: string[] = []
afterEach(async () => {
  for (const dir of mounted.splice(0)) execFileSync('umount', [dir])
  await tree?.dispose()
})

const SWITCHES = ['strictOnTopic', 'ledger', 'content', 'verify', 'induce', 'child', 'operatorDocsReadOnly'] as const

/** Runs dsh under strace, which SIGKILLs it at its first rename: a writer killed between its write and its rename. */
function dshKilledAtRename(args: readonly string[]) {
  const renames = 'rename,renameat,renameat2'
  return spawnCollect('strace', ['-f', '-qq', '-o', '/dev/null', '-e', `trace=${renames}`, '-e', `inject=${renames}:signal=KILL`, dshBinary, ...args], { cwd: tree.path('repo'), env: testEnv(tree.root, { NO_COLOR: '1' }) })
}

describe('files shared by several dsh processes', () => {
  it('F1: seven `dsh docs switches` at once all land in settings.yaml', async () => {
    tree = await tempTree({ 'repo/.git/': null })
    const home = tree.path('home')
    const runs = await Promise.all(SWITCHES.map((name) => runDsh(['--dsh-home', home, 'docs', '--cwd', tree.path('repo'), 'switches', `${name}=off`], { cwd: tree.root })))
    for (const run of runs) expect(run).toMatchObject({ code: 0, stderr: '' })
    const text = readFileSync(tree.path('home/settings.yaml'), 'utf8')
    for (const name of SWITCHES) expect(text).toContain(`  ${name}: false\n`)
    expect(readdirSync(home).filter((name) => name !== 'settings.yaml' && name !== 'sessions')).toEqual([])
  })

  it('F10: ten `dsh roots remove PATH` at once all succeed and leave no root behind', async () => {
    const names = Array.from({ length: 10 }, (_, index) => `lib${index}`)
    tree = await tempTree({ 'repo/.git/': null, ...Object.fromEntries(names.map((name) => [`${name}/`, null])) })
    const home = tree.path('home')
    for (const name of names) expect(await runDsh(['--dsh-home', home, 'roots', 'add', tree.path(name)], { cwd: tree.path('repo') })).toMatchObject({ code: 0 })
    const runs = await Promise.all(names.map((name) => runDsh(['--dsh-home', home, 'roots', 'remove', tree.path(name)], { cwd: tree.path('repo') })))
    for (const run of runs) expect(run).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^Removed additional root \d+: /u) })
    expect((await runDsh(['--dsh-home', home, 'roots', 'list'], { cwd: tree.path('repo') })).stdout).toContain('No additional roots.')
  })

  it('F11: `dsh run` with an unreadable roots registry warns that it runs without the registered roots', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'home/workspace-roots.json': '{ not json', 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'hi.json', { responses: [{ text: 'hi' }] })
    const run = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, 'hello'], { cwd: tree.root })
    expect(run).toMatchObject({ code: 0, stdout: 'hi\n' })
    const warnings = run.stderr.split('\n').filter((line) => line.startsWith('warning: '))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(new RegExp(`^warning: the workspace roots registry ${tree.path('home/workspace-roots.json')} is not valid JSON \\(.*\\); .*; this session runs without its registered additional roots until it can be read$`, 'u'))
  })

  it('F14: temp files of a settings writer and a registry writer killed mid-write are removed by the next writer', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'lib/': null, 'docs/': null })
    const home = tree.path('home')
    const killedSwitch = await dshKilledAtRename(['--dsh-home', home, 'docs', '--cwd', tree.path('repo'), 'switches', 'ledger=off'])
    const killedAdd = await dshKilledAtRename(['--dsh-home', home, 'roots', 'add', tree.path('lib')])
    expect([killedSwitch.code, killedAdd.code]).toEqual([null, null])
    const leftovers = readdirSync(home).filter((name) => name.endsWith('.tmp'))
    expect(leftovers).toHaveLength(2)
    expect(await runDsh(['--dsh-home', home, 'docs', '--cwd', tree.path('repo'), 'switches', 'ledger=off'], { cwd: tree.root })).toMatchObject({ code: 0 })
    expect(await runDsh(['--dsh-home', home, 'roots', 'add', tree.path('docs')], { cwd: tree.path('repo') })).toMatchObject({ code: 0 })
    expect(readdirSync(home).filter((name) => name.endsWith('.tmp') || name.includes('.lock'))).toEqual([])
  })

  it('F15: a full disk under the registry and the settings file is an error that names the file', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'lib/': null, 'disk/': null })
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', tree.path('disk')])
    mounted.push(tree.path('disk'))
    const home = tree.path('disk/home')
    mkdirSync(home)
    // Fifteen of the sixteen pages are taken: the lock file fits, the new registry or settings file does not.
    writeFileSync(tree.path('disk/filler'), Buffer.alloc(15 * 4096))
    const add = await runDsh(['--dsh-home', home, 'roots', 'add', tree.path('lib')], { cwd: tree.path('repo') })
    expect(add).toMatchObject({ code: 1, stdout: '' })
    expect(add.stderr).toBe(`dsh: storage-unavailable: cannot write the workspace roots registry ${home}/workspace-roots.json: the disk is full (ENOSPC); nothing was changed\n`)
    const switches = await runDsh(['--dsh-home', home, 'docs', '--cwd', tree.path('repo'), 'switches', 'ledger=off'], { cwd: tree.root })
    expect(switches).toMatchObject({ code: 1, stdout: '' })
    expect(switches.stderr).toBe(`dsh: docs: cannot update maintainer-doc-guard-switches: writing ${home}/settings.yaml failed: the disk is full (ENOSPC); the file is unchanged\n`)
    expect(readdirSync(home).filter((name) => name.endsWith('.tmp') || name.includes('.lock'))).toEqual([])
  })
})
