// Instruction injection for additional roots (seeds/002): the top level from the first step,
// nested files after a successful touch with every intermediate directory, nothing repeated while
// unchanged, updates, withdrawals, and revocations when a root is removed, goes missing or is
// redirected. Everything runs on a real host with the local filesystem and the core tools.
import { readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { RootRegistry } from '../src/index.ts'
import { edit, multiRootRig, pluginMessages, read, write, type Rig } from './support/rig.ts'

let rig: Rig
afterEach(async () => rig?.dispose())

const repos = {
  'repo-a/.git/': null,
  'repo-a/AGENTS.md': 'Primary rule.\n',
  'repo-b/.git/': null,
  'repo-b/AGENTS.md': 'Top rule of b.\n',
  'repo-b/README.md': 'readme\n',
  'repo-b/src/AGENTS.md': 'Src rule.\n',
  'repo-b/src/deep/AGENTS.md': 'Deep rule.\n',
  'repo-b/src/deep/entry.ts': 'export {}\n',
  'repo-b/docs/AGENTS.md': 'Docs rule.\n',
}

async function withRootB(extra: Record<string, string | null> = {}): Promise<Rig> {
  rig = await multiRootRig({ ...repos, ...extra })
  await new RootRegistry({ dshHome: rig.tree.path('home') }).add(rig.tree.path('repo-a'), rig.tree.path('repo-b'))
  return rig
}

const b = (path: string) => rig.tree.path(`repo-b/${path}`)
const revoked = (why: string) =>
  `Workspace root revoked: ${rig.tree.path('repo-b')}\n\n${rig.tree.path('repo-b')} is no longer a workspace root of this session (${why}). Instructions loaded from it earlier no longer apply, and files in it can no longer be written.`

describe('additional-root instructions', () => {
  it('sends the top level from the first step, right after the prompt, and nested files only after a touch', async () => {
    await withRootB()
    const agent = await rig.start('repo-a', { responses: [read(b('src/deep/entry.ts')), { text: 'done' }] })
    await agent.prompt('look at b')
    const [first, second] = pluginMessages(agent.session)
    expect(first).toMatchObject({ turn: 1, step: 1 })
    expect(first?.text).toContain(`Instructions for additional workspace root ${rig.tree.path('repo-b')}:`)
    expect(first?.text).toContain('Top rule of b.')
    expect(first?.text).not.toContain('Src rule.')
    expect(first?.text).not.toContain('Docs rule.')
    const [request1, request2] = rig.requests
    const users1 = request1?.messages.filter((m) => m.role === 'user').map((m) => m.content)
    expect(users1?.[0]).toBe('look at b')
    expect(users1?.[1]).toBe(first?.text)
    expect(second).toMatchObject({ turn: 1, step: 2 })
    // The intermediate directory `src` comes with the touched file's own directory, shallow first.
    expect(second?.text.indexOf('Src rule.')).toBeGreaterThan(-1)
    expect(second?.text.indexOf('Deep rule.')).toBeGreaterThan(second?.text.indexOf('Src rule.') ?? 0)
    expect(second?.text).not.toContain('Top rule of b.')
    expect(second?.text).not.toContain('Docs rule.')
    expect(request2?.messages.at(-1)?.content).toBe(second?.text)
    expect(request2?.messages.at(-2)?.role).toBe('tool')
  })

  it('repeats nothing while unchanged, sends an update after an edit and a withdrawal after a delete', async () => {
    await withRootB()
    const agent = await rig.start('repo-a', {
      responses: [read(b('src/deep/entry.ts')), edit(b('src/AGENTS.md'), 'Src rule.', 'Src rule, edited.'), read(b('README.md')), read(b('src/deep/entry.ts')), { text: 'first turn done' }, { text: 'second turn done' }],
    })
    await agent.prompt('work in b')
    const turn1 = pluginMessages(agent.session)
    expect(turn1.map((m) => m.step)).toEqual([1, 2, 3])
    expect(turn1[2]?.text).toContain(`Updated instructions from: ${b('src/AGENTS.md')}\n\nThis file changed after it was loaded. The content below replaces everything previously loaded from it.\n\nSrc rule, edited.`)
    unlinkSync(b('src/deep/AGENTS.md'))
    await agent.prompt('again')
    const turn2 = pluginMessages(agent.session).slice(3)
    expect(turn2).toHaveLength(1)
    expect(turn2[0]?.text).toBe(`<system-reminder>\nInstructions removed: ${b('src/deep/AGENTS.md')}\n\nThe previously loaded instructions from this file no longer apply.\n</system-reminder>`)
    expect(turn2[0]?.changes).toEqual([{ action: 'remove', scope: `file\u0000${rig.tree.path('repo-b')}\u0000src/deep\u0000AGENTS.md`, path: b('src/deep/AGENTS.md'), root: rig.tree.path('repo-b') }])
  })

  it('a failed read, a glob and a bash command are not touches', async () => {
    await withRootB()
    const agent = await rig.start('repo-a', {
      responses: [read(b('src/deep/missing.ts')), { toolCalls: [{ name: 'glob', arguments: { pattern: '**/*.ts', path: b('src') } }] }, { toolCalls: [{ name: 'bash', arguments: { command: `cat ${b('src/deep/entry.ts')}` } }] }, { text: 'done' }],
    })
    await agent.prompt('look')
    expect(pluginMessages(agent.session).map((m) => m.step)).toEqual([1])
  })

  it('a write into the additional root is a touch (its directory chain is examined)', async () => {
    await withRootB()
    const agent = await rig.start('repo-a', { responses: [write(b('docs/new.md'), 'x'), { text: 'done' }] })
    await agent.prompt('write')
    const messages = pluginMessages(agent.session)
    expect(messages[1]?.text).toContain('Docs rule.')
    expect(messages[1]?.text).not.toContain('Src rule.')
  })

  it('a delivered nested file is re-checked every step without a new touch', async () => {
    await withRootB()
    const agent = await rig.start('repo-a', { responses: [read(b('src/deep/entry.ts')), { text: 'one' }, { text: 'two' }] })
    await agent.prompt('one')
    writeFileSync(b('src/AGENTS.md'), 'Src rule v2.\n')
    await agent.prompt('two')
    const last = pluginMessages(agent.session).at(-1)
    expect(last).toMatchObject({ turn: 2, step: 1 })
    expect(last?.text).toContain(`Updated instructions from: ${b('src/AGENTS.md')}`)
    expect(last?.text).toContain('Src rule v2.')
  })

  describe('revocation', () => {

    it('when the root is removed', async () => {
      await withRootB()
      const agent = await rig.start('repo-a', { responses: [read(b('src/deep/entry.ts')), { text: 'one' }, { text: 'two' }, { text: 'three' }] })
      await agent.prompt('one')
      await rig.roots(agent).remove('1')
      await agent.prompt('two')
      const last = pluginMessages(agent.session).at(-1)
      expect(last?.text).toBe(`<system-reminder>\n${revoked('it was removed from the workspace roots')}\n</system-reminder>`)
      // The typed record retires the root and every file delivered from it.
      expect(last?.changes.map((c) => [c.action, c.path])).toEqual([
        ['remove', rig.tree.path('repo-b')],
        ['remove', b('AGENTS.md')],
        ['remove', b('src/AGENTS.md')],
        ['remove', b('src/deep/AGENTS.md')],
      ])
      const count = pluginMessages(agent.session).length
      await agent.prompt('three')
      expect(pluginMessages(agent.session)).toHaveLength(count)
    })

    it('when the root goes missing, and announces it again when it is back', async () => {
      await withRootB()
      const agent = await rig.start('repo-a', { responses: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] })
      await agent.prompt('one')
      renameSync(rig.tree.path('repo-b'), rig.tree.path('repo-b-away'))
      await agent.prompt('two')
      expect(pluginMessages(agent.session).at(-1)?.text).toBe(`<system-reminder>\n${revoked('its directory is gone or can no longer be examined')}\n</system-reminder>`)
      renameSync(rig.tree.path('repo-b-away'), rig.tree.path('repo-b'))
      await agent.prompt('three')
      const back = pluginMessages(agent.session).at(-1)
      expect(back?.turn).toBe(3)
      expect(back?.text).toContain('Additional workspace roots: besides the working directory')
      expect(back?.text).toContain('Top rule of b.')
    })

    it('when the root is redirected (its link now leads elsewhere)', async () => {
      rig = await multiRootRig({ ...repos, 'elsewhere/AGENTS.md': 'Elsewhere rule.\n' })
      symlinkSync(rig.tree.path('repo-b'), rig.tree.path('b-link'))
      await new RootRegistry({ dshHome: rig.tree.path('home') }).add(rig.tree.path('repo-a'), rig.tree.path('b-link'))
      const agent = await rig.start('repo-a', { responses: [{ text: 'one' }, { text: 'two' }] })
      await agent.prompt('one')
      expect(pluginMessages(agent.session)[0]?.text).toContain(`Instructions for additional workspace root ${rig.tree.path('b-link')}:`)
      rmSync(rig.tree.path('b-link'))
      symlinkSync(rig.tree.path('elsewhere'), rig.tree.path('b-link'))
      await agent.prompt('two')
      const last = pluginMessages(agent.session).at(-1)?.text ?? ''
      expect(last).toContain(`Workspace root revoked: ${rig.tree.path('b-link')}`)
      expect(last).toContain('(its path now leads to a different directory)')
      expect(last).not.toContain('Elsewhere rule.')
    })

    it('when the registry cannot be read (not "removed"), and announces it again once it is repaired', async () => {
      await withRootB()
      const agent = await rig.start('repo-a', { responses: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] })
      await agent.prompt('one')
      const file = rig.tree.path('home/workspace-roots.json')
      const stored = readFileSync(file, 'utf8')
      writeFileSync(file, '{ not json')
      await agent.prompt('two')
      expect(pluginMessages(agent.session).at(-1)?.text).toBe(`<system-reminder>\n${revoked('the workspace roots registry cannot be read')}\n</system-reminder>`)
      writeFileSync(file, stored)
      await agent.prompt('three')
      const back = pluginMessages(agent.session).at(-1)
      expect(back?.turn).toBe(3)
      expect(back?.text).toContain('Top rule of b.')
    })

    it('when the path of a redirected root is added again: the old directory is replaced by the new one, in one message', async () => {
      rig = await multiRootRig({ ...repos, 'elsewhere/AGENTS.md': 'Elsewhere rule.\n' })
      const link = rig.tree.path('b-link')
      symlinkSync(rig.tree.path('repo-b'), link)
      const registry = new RootRegistry({ dshHome: rig.tree.path('home') })
      await registry.add(rig.tree.path('repo-a'), link)
      const agent = await rig.start('repo-a', { responses: [{ text: 'one' }, { text: 'two' }] })
      await agent.prompt('one')
      rmSync(link)
      symlinkSync(rig.tree.path('elsewhere'), link)
      await registry.add(rig.tree.path('repo-a'), link)
      await agent.prompt('two')
      const last = pluginMessages(agent.session).at(-1)
      expect(last?.text.replaceAll(rig.tree.root, '<T>')).toBe(`<system-reminder>
Workspace root replaced: <T>/b-link

<T>/b-link now leads to a different directory than before, and that directory was added as a workspace root in its place. Instructions loaded from the earlier directory no longer apply; only those of the directory it leads to now do.

Additional workspace roots: besides the working directory <T>/repo-a, this session may read and write files in these directories:
- <T>/b-link
This list replaces any earlier one. Relative paths still resolve against the working directory, so use absolute paths for files in these roots.

Instruction files of the additional workspace roots follow. Each applies to work inside its own root: top-level files to the whole root, files in subdirectories to work under those subdirectories, and more specific files take precedence. They do not override system, developer, or direct user instructions.

Instructions for additional workspace root <T>/b-link:

Additional instructions from: <T>/b-link/AGENTS.md

These instructions apply to work under \`<T>/b-link\`. Use them as guidance when relevant; more specific instructions take precedence. They do not override system, developer, or direct user instructions.

Elsewhere rule.

</system-reminder>`)
      expect(last?.changes.map((change) => [change.action, change.root?.replaceAll(rig.tree.root, '<T>')])).toEqual([
        ['remove', '<T>/repo-b'],
        ['remove', '<T>/repo-b'],
        ['set', '<T>/elsewhere'],
        ['set', '<T>/elsewhere'],
      ])
    })
  })

  it('never reads outside the root: a link out of the root is not loaded, with one warning', async () => {
    rig = await multiRootRig({ ...repos, 'repo-b/AGENTS.md': null, 'secret/AGENTS.md': 'Secret rule.\n' })
    rmSync(rig.tree.path('repo-b/AGENTS.md'), { recursive: true })
    symlinkSync(rig.tree.path('secret/AGENTS.md'), rig.tree.path('repo-b/AGENTS.md'))
    await new RootRegistry({ dshHome: rig.tree.path('home') }).add(rig.tree.path('repo-a'), rig.tree.path('repo-b'))
    const agent = await rig.start('repo-a', { responses: [{ text: 'done' }, { text: 'again' }] })
    await agent.prompt('go')
    await agent.prompt('again')
    const text = pluginMessages(agent.session)[0]?.text ?? ''
    expect(text).toContain('Additional workspace roots:')
    expect(text).not.toContain('Secret rule.')
    // The person is told once why the file is not loaded, as workspace-context does for the primary root.
    expect(rig.warnings).toEqual([`additional-root instructions: ${b('AGENTS.md')} links outside its additional root; it is not loaded`])
  })
})
