// The operator surfaces of additional roots through the built binary: `dsh roots` (list with
// states and aliases, --json, add, remove, alias, codes and exit statuses, an unreadable
// registry), `/workspace-folders` in `dsh chat`, and the additional-roots part of `dsh context`
// and `dsh context why`.
import { renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDshPiped } from './chat-harness.ts'
import { runDsh, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function workspace(): Promise<void> {
  tree = await tempTree({ 'repo/.git/': null, 'repo/AGENTS.md': 'Repo rule.\n', 'lib/AGENTS.md': 'Lib rule.\n', 'lib/src/AGENTS.md': 'Lib src rule.\n', 'lib/src/x.ts': 'x\n', 'docs/': null, 'scripts/': null })
}

const roots = (...args: string[]) => runDsh(['--dsh-home', tree.path('home'), 'roots', ...args], { cwd: tree.path('repo') })

describe('dsh roots', () => {
  it('adds $DSH_HOME as a root with a warning line saying why it is risky; an ordinary folder gets none', async () => {
    await workspace()
    const added = await roots('add', tree.path('home'))
    expect(added).toMatchObject({ code: 0, stdout: `Added additional root 1: ${tree.path('home')}\n` })
    expect(added.stderr).toBe(`warning: ${tree.path('home')} is dsh's own state directory ($DSH_HOME) or contains it: a command could rewrite the settings that decide what the agent may do; shell commands of every session in this project may write there\n`)
    expect((await roots('add', '../lib')).stderr).toBe('')
  })

  it('adds, lists, aliases and removes roots of the working directory', async () => {
    await workspace()
    expect(await roots('list')).toMatchObject({ code: 0, stdout: `Primary root: ${tree.path('repo')} (the working directory; always writable)\nNo additional roots. Add one with dsh roots add PATH.\n` })
    expect(await roots('add', '../lib')).toMatchObject({ code: 0, stdout: `Added additional root 1: ${tree.path('lib')}\n` })
    expect(await roots('add', tree.path('docs'), '--alias', 'docs')).toMatchObject({ code: 0, stdout: `Added additional root 2: ${tree.path('docs')} [docs]\n` })
    expect(await roots('alias', '1', 'shared')).toMatchObject({ code: 0, stdout: `Additional root 1 is now called shared: ${tree.path('lib')}\n` })
    renameSync(tree.path('docs'), tree.path('docs-away'))
    expect((await roots()).stdout).toBe(
      [
        `Primary root: ${tree.path('repo')} (the working directory; always writable)`,
        `  1. ${tree.path('lib')} [shared] — available`,
        `  2. ${tree.path('docs')} [docs] — missing: no directory exists there any more`,
        'Writable additional roots: 1 of 2.',
        '',
      ].join('\n'),
    )
    const json: unknown = JSON.parse((await roots('list', '--json')).stdout)
    expect(json).toEqual({
      primary: tree.path('repo'),
      roots: [
        { id: expect.any(String), ordinal: 1, path: tree.path('lib'), recordedPath: tree.path('lib'), alias: 'shared', addedAt: expect.any(String), origin: 'registry', state: 'available' },
        { id: expect.any(String), ordinal: 2, path: tree.path('docs'), recordedPath: tree.path('docs'), alias: 'docs', addedAt: expect.any(String), origin: 'registry', state: 'missing', detail: 'no directory exists there any more' },
      ],
    })
    expect(await roots('remove', tree.path('docs'))).toMatchObject({ code: 0, stdout: `Removed additional root 2: ${tree.path('docs')} [docs]\n` })
    expect(await roots('alias', '../lib')).toMatchObject({ code: 0, stdout: `Additional root 1 has no alias now: ${tree.path('lib')}\n` })
    expect(await roots('list', '--cwd', tree.path('lib'))).toMatchObject({ code: 0, stdout: expect.stringContaining('No additional roots.') })
  })

  it('adding the path of a redirected root again says it was re-recorded and where it leads now', async () => {
    await workspace()
    symlinkSync(tree.path('lib'), tree.path('lib-link'))
    expect(await roots('add', '../lib-link')).toMatchObject({ code: 0, stdout: `Added additional root 1: ${tree.path('lib-link')}\n` })
    rmSync(tree.path('lib-link'))
    symlinkSync(tree.path('docs'), tree.path('lib-link'))
    expect((await roots()).stdout).toContain(`  1. ${tree.path('lib-link')} — redirected: it now leads to ${tree.path('docs')} instead of ${tree.path('lib')}; add it again to accept the new target\n`)
    expect(await roots('add', '../lib-link')).toMatchObject({ code: 0, stdout: `Re-recorded additional root 1: ${tree.path('lib-link')} now leads to ${tree.path('docs')} (it led to ${tree.path('lib')})\n` })
    expect((await roots()).stdout).toContain(`  1. ${tree.path('lib-link')} — available\n`)
  })

  it('bad input exits 2 with its code; an unreadable registry lists with the problem and refuses changes with exit 1', async () => {
    await workspace()
    expect(await roots('rm', '1')).toMatchObject({ code: 2, stdout: '', stderr: 'dsh: roots: unknown command "rm" (list, add, remove, alias); see dsh roots --help\n' })
    expect(await roots('add', '../nope')).toMatchObject({ code: 2, stderr: `dsh: missing: ${tree.path('nope')} does not exist\n` })
    expect(await roots('add', '.')).toMatchObject({ code: 2, stderr: `dsh: equals-primary: ${tree.path('repo')} is the primary root itself (the session's working directory)\n` })
    expect(await roots('remove', '3')).toMatchObject({ code: 2, stderr: 'dsh: not-found: there is no additional root 3 (there are 0)\n' })
    expect(await roots('add', '../lib', '--alias', 'a\tb')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^dsh: invalid-alias: /) })
    writeFileSync(tree.path('home/workspace-roots.json'), '{ broken')
    const listed = await roots('list')
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(`Registry problem: the workspace roots registry ${tree.path('home/workspace-roots.json')} is not valid JSON`)
    const refused = await roots('add', '../lib')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/^dsh: storage-unavailable: .*dsh leaves it untouched: fix it, or move it aside/)
    const script = writeScript(tree.path('scripts'), 'hi.json', { responses: [{ text: 'still works' }] })
    const run = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, 'hi'], { cwd: tree.root })
    expect(run).toMatchObject({ code: 0, stdout: 'still works\n' })
  })
})

describe('/workspace-folders in dsh chat', () => {
  it('lists, adds, aliases and removes roots of the chat session, --add-dir ones marked as this session only', async () => {
    await workspace()
    const script = writeScript(tree.path('scripts'), 'chat.json', { responses: [] })
    const input = ['/workspace-folders', '/workspace-folders add ' + tree.path('lib'), '/workspace-folders alias 1 "my lib"', '/workspace-folders add relative/path', '/workspace-folders list', '/workspace-folders remove 1', '/workspace-folders frob', '/exit', ''].join('\n')
    const result = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--add-dir', tree.path('docs')], input, { cwd: tree.root })
    expect(result.code).toBe(0)
    expect(result.stdout.split('\n').slice(0, 13)).toEqual([
      `Primary root: ${tree.path('repo')} (the working directory; always writable)`,
      `  1. ${tree.path('docs')} — available (this session only)`,
      'Writable additional roots: 1 of 1.',
      `Added additional root 1: ${tree.path('lib')}`,
      `Additional root 1 is now called my lib: ${tree.path('lib')}`,
      '/workspace-folders: not-absolute: relative/path is not an absolute path; give the full path (for example /home/me/lib)',
      `Primary root: ${tree.path('repo')} (the working directory; always writable)`,
      `  1. ${tree.path('lib')} [my lib] — available`,
      `  2. ${tree.path('docs')} — available (this session only)`,
      'Writable additional roots: 2 of 2.',
      `Removed additional root 1: ${tree.path('lib')} [my lib]`,
      '/workspace-folders: unknown verb "frob"',
      '/workspace-folders [list]            additional workspace roots of this session, with their states',
    ])
    expect((await roots('list')).stdout).toContain('No additional roots.')
  })

  it("/add-dir PATH, Claude Code's spelling, adds a root the same way; without a path it says what it takes", async () => {
    await workspace()
    const script = writeScript(tree.path('scripts'), 'chat.json', { responses: [] })
    const input = ['/add-dir', `/add-dir ${tree.path('lib')}`, '/workspace-folders', '/exit', ''].join('\n')
    const result = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${script}`], input, { cwd: tree.root })
    expect(result.code).toBe(0)
    expect(result.stdout.split('\n').slice(0, 5)).toEqual([
      'usage: /add-dir PATH (the directory to add; /workspace-folders lists the roots)',
      `Added additional root 1: ${tree.path('lib')}`,
      `Primary root: ${tree.path('repo')} (the working directory; always writable)`,
      `  1. ${tree.path('lib')} — available`,
      'Writable additional roots: 1 of 1.',
    ])
  })
})

describe('dsh context with additional roots', () => {
  it('lists the roots and their top-level instruction files, and explains a path inside one', async () => {
    await workspace()
    await roots('add', '../lib', '--alias', 'lib')
    const context = await runDsh(['--dsh-home', tree.path('home'), 'context', '--cwd', tree.path('repo')], { cwd: tree.root })
    expect(context.code).toBe(0)
    expect(context.stdout).toContain(['', 'Additional workspace roots (dsh roots list):', `  1. ${tree.path('lib')} [lib] — available`, `     ${tree.path('lib/AGENTS.md')}: top level, sent at the first step (10 bytes)`].join('\n'))
    expect(context.stdout).not.toContain('Lib src rule')
    const json: unknown = JSON.parse((await runDsh(['--dsh-home', tree.path('home'), 'context', '--cwd', tree.path('repo'), '--json'], { cwd: tree.root })).stdout)
    expect(json).toMatchObject({ additionalRoots: { primary: tree.path('repo'), roots: [{ ordinal: 1, path: tree.path('lib'), alias: 'lib', state: 'available', files: [{ path: tree.path('lib/AGENTS.md'), state: 'loaded', bytes: 10 }] }] } })
    const why = await runDsh(['--dsh-home', tree.path('home'), 'context', 'why', '--cwd', tree.path('repo'), tree.path('lib/src/x.ts')], { cwd: tree.root })
    expect(why).toMatchObject({
      code: 0,
      stdout: [
        `Instruction files that apply to ${tree.path('lib/src/x.ts')}`,
        `(additional workspace root ${tree.path('lib')}; more specific files are listed later and take precedence):`,
        `  1. ${tree.path('lib/AGENTS.md')} — top level of the additional root (an ancestor of the path); sent from the first step of a session`,
        `  2. ${tree.path('lib/src/AGENTS.md')} — instructions for \`src\` in the additional root (the path's own directory); sent after the agent first reads, writes or edits a file there or below`,
        '',
      ].join('\n'),
    })
  })
})
