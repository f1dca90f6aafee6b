// The session around the instructions: zero contribution without roots (requests byte-identical
// to a composition without the plugin), resume continues from the logged state, compaction makes
// the plugin tell the model again, cancellation before the commit keeps the touches, a directory
// that cannot be examined withdraws nothing, and the caps degrade with one warning each.
import { symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { FileSystemPort } from '@dsh/contracts'
import type { TempTree } from '@dsh/testkit'
import { RootRegistry } from '../src/index.ts'
import { multiRootRig, pluginMessages, read, write, type Rig } from './support/rig.ts'

let rigs: Rig[] = []
afterEach(async () => {
  for (const rig of rigs.toReversed()) await rig.host.dispose()
  await rigs[0]?.tree.dispose()
  rigs = []
})

const repos = {
  'repo-a/.git/': null,
  'repo-a/AGENTS.md': 'Primary rule.\n',
  'repo-a/pkg/AGENTS.md': 'Pkg rule.\n',
  'repo-a/pkg/a.ts': 'a\n',
  'repo-b/AGENTS.md': 'Top rule of b.\n',
  'repo-b/src/AGENTS.md': 'Src rule.\n',
  'repo-b/src/x.ts': 'x\n',
}

async function rigOver(options: Parameters<typeof multiRootRig>[2] = {}, config: Parameters<typeof multiRootRig>[1] = {}, tree?: TempTree): Promise<Rig> {
  const rig = await multiRootRig(repos, config, { ...options, ...(tree === undefined ? {} : { tree }) })
  rigs.push(rig)
  return rig
}

const sameScript = () => ({ responses: [read('pkg/a.ts'), write('pkg/new.ts', 'n'), { text: 'done' }] })
const registerB = (rig: Rig) => new RootRegistry({ dshHome: rig.tree.path('home') }).add(rig.tree.path('repo-a'), rig.tree.path('repo-b'))

describe('zero contribution', () => {
  it('without roots, every request is byte-identical to a composition without the plugin', async () => {
    const without = await rigOver({ workspaceContext: true, plugin: false })
    await (await without.start('repo-a', sameScript())).prompt('work')
    const withPlugin = await rigOver({ workspaceContext: true }, {}, without.tree)
    // A root registered for another primary root changes nothing here.
    await new RootRegistry({ dshHome: without.tree.path('home') }).add(without.tree.path('repo-b'), without.tree.path('repo-a/pkg'))
    unlinkSync(without.tree.path('repo-a/pkg/new.ts'))
    const agent = await withPlugin.start('repo-a', sameScript())
    await agent.prompt('work')
    expect(withPlugin.requests).toHaveLength(3)
    expect(JSON.stringify(withPlugin.requests)).toBe(JSON.stringify(without.requests))
    expect(pluginMessages(agent.session)).toEqual([])
  })
})

describe('across the session', () => {
  it('a resumed session is not told again, but hears about what changed while it was closed', async () => {
    const first = await rigOver()
    await registerB(first)
    const agent = await first.start('repo-a', { responses: [read(first.tree.path('repo-b/src/x.ts')), { text: 'one' }] })
    await agent.prompt('one')
    const told = pluginMessages(agent.session).length
    const id = agent.session.id
    await first.host.dispose()
    writeFileSync(first.tree.path('repo-b/src/AGENTS.md'), 'Src rule v2.\n')
    const second = await rigOver({}, {}, first.tree)
    const resumed = await second.start('repo-a', { responses: [{ text: 'two' }] }, { resume: id })
    await resumed.prompt('two')
    const after = pluginMessages(resumed.session).slice(told)
    expect(after).toHaveLength(1)
    expect(after[0]?.text).toContain(`Updated instructions from: ${first.tree.path('repo-b/src/AGENTS.md')}`)
    expect(after[0]?.text).not.toContain('Additional workspace roots:')
    expect(after[0]?.text).not.toContain('Top rule of b.')
  })

  it('after compaction the note and the top level are sent again', async () => {
    const rig = await rigOver()
    await registerB(rig)
    const agent = await rig.start('repo-a', { responses: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] })
    await agent.prompt('one')
    await agent.prompt('two')
    expect(agent.compact()).toBe(true)
    await agent.prompt('three')
    const last = pluginMessages(agent.session).at(-1)
    expect(last?.turn).toBe(3)
    expect(last?.text).toContain('Additional workspace roots:')
    expect(last?.text).toContain('Top rule of b.')
  })

  it('a step cancelled during the examination commits nothing: the touch is delivered at the next step', async () => {
    const controller = new AbortController()
    let armed = false
    const wrapFs = (fs: FileSystemPort): FileSystemPort => ({
      ...fs,
      resolve: async (path, options) => {
        const target = await fs.resolve(path, options)
        if (armed && path.endsWith('src/x.ts')) {
          armed = false
          controller.abort(new Error('cancelled by the test'))
        }
        return target
      },
    })
    const rig = await rigOver({ wrapFs })
    await registerB(rig)
    const agent = await rig.start('repo-a', { responses: [read(rig.tree.path('repo-b/src/x.ts')), { text: 'never reached' }, { text: 'two' }] })
    armed = true
    const cancelled = await agent.prompt('one', { signal: controller.signal })
    expect(cancelled.reason).toBe('cancelled')
    expect(pluginMessages(agent.session).map((m) => m.step)).toEqual([1])
    await agent.prompt('two')
    const last = pluginMessages(agent.session).at(-1)
    expect(last?.turn).toBe(2)
    expect(last?.text).toContain('Src rule.')
  })

  it('a delivered directory that cannot be examined withdraws nothing', async () => {
    let failing = false
    const wrapFs = (fs: FileSystemPort): FileSystemPort => ({
      ...fs,
      stat: async (path, signal) => {
        if (failing && path.endsWith('repo-b/src')) throw Object.assign(new Error('EIO: i/o error'), { code: 'FS_IO', path })
        return fs.stat(path, signal)
      },
    })
    const rig = await rigOver({ wrapFs })
    await registerB(rig)
    const agent = await rig.start('repo-a', { responses: [read(rig.tree.path('repo-b/src/x.ts')), { text: 'one' }, { text: 'two' }, { text: 'three' }] })
    await agent.prompt('one')
    const told = pluginMessages(agent.session).length
    failing = true
    await agent.prompt('two')
    expect(pluginMessages(agent.session)).toHaveLength(told)
    failing = false
    unlinkSync(rig.tree.path('repo-b/src/AGENTS.md'))
    await agent.prompt('three')
    expect(pluginMessages(agent.session).at(-1)?.text).toContain(`Instructions removed: ${rig.tree.path('repo-b/src/AGENTS.md')}`)
  })
})

describe('withdrawals and files that cannot be loaded', () => {
  it('a delivered file that cannot be loaded now is not withdrawn; once it is gone it is, whatever the other candidates are', async () => {
    const rig = await rigOver({}, { maxSourceBytes: 100 })
    await registerB(rig)
    const src = (name: string) => rig.tree.path(`repo-b/src/${name}`)
    writeFileSync(rig.tree.path('secret.md'), 'Secret rule.\n')
    const agent = await rig.start('repo-a', { responses: [read(src('x.ts')), { text: 'one' }, { text: 'two' }, { text: 'three' }] })
    await agent.prompt('one')
    const told = pluginMessages(agent.session).length
    writeFileSync(src('AGENTS.md'), 'Src rule, now far too long. '.repeat(10))
    await agent.prompt('two')
    expect(pluginMessages(agent.session)).toHaveLength(told)
    unlinkSync(src('AGENTS.md'))
    // The next candidate of the same list exists but cannot be loaded: AGENTS.md is still gone.
    symlinkSync(rig.tree.path('secret.md'), src('CLAUDE.md'))
    await agent.prompt('three')
    const last = pluginMessages(agent.session).at(-1)
    expect(last?.turn).toBe(3)
    expect(last?.text).toBe(`<system-reminder>\nInstructions removed: ${src('AGENTS.md')}\n\nThe previously loaded instructions from this file no longer apply.\n</system-reminder>`)
    expect(rig.warnings).toEqual([
      `additional-root instructions: ${src('AGENTS.md')} is larger than maxSourceBytes; it is not loaded`,
      `additional-root instructions: ${src('CLAUDE.md')} links outside its additional root; it is not loaded`,
    ])
  })
})

describe('caps', () => {
  it('too many pending touches: later ones are ignored with one warning', async () => {
    const rig = await rigOver({}, { maxPendingTouches: 1 })
    await registerB(rig)
    const reads = (n: number) => ({ toolCalls: [rig.tree.path('repo-b/x.md'), rig.tree.path('repo-b/src/x.ts'), rig.tree.path('repo-b/y.md')].slice(0, n).map((file_path) => ({ name: 'read', arguments: { file_path } })) })
    writeFileSync(rig.tree.path('repo-b/x.md'), 'x')
    writeFileSync(rig.tree.path('repo-b/y.md'), 'y')
    const agent = await rig.start('repo-a', { responses: [reads(3), { text: 'one' }, reads(3), { text: 'two' }] })
    await agent.prompt('one')
    await agent.prompt('two')
    expect(pluginMessages(agent.session).some((m) => m.text.includes('Src rule.'))).toBe(false)
    expect(rig.warnings).toEqual(['additional-root instructions: more than 1 touched paths were waiting; later touches are ignored until the next step (raise multiRootWorkspace.maxPendingTouches)'])
  })

  it('too many delivered files: nested ones stop with one warning, top-level changes still arrive', async () => {
    const rig = await rigOver({}, { maxDeliveredScopes: 1 })
    await registerB(rig)
    const agent = await rig.start('repo-a', { responses: [read(rig.tree.path('repo-b/src/x.ts')), { text: 'one' }, read(rig.tree.path('repo-b/src/x.ts')), { text: 'two' }] })
    await agent.prompt('one')
    writeFileSync(rig.tree.path('repo-b/AGENTS.md'), 'Top rule v2.\n')
    await agent.prompt('two')
    const texts = pluginMessages(agent.session).map((m) => m.text)
    expect(texts.some((text) => text.includes('Src rule.'))).toBe(false)
    expect(texts.at(-1)).toContain('Top rule v2.')
    expect(rig.warnings).toEqual(['additional-root instructions: 1 instruction files were delivered in this session; nested instruction files are no longer sent (raise multiRootWorkspace.maxDeliveredScopes)'])
  })
})
