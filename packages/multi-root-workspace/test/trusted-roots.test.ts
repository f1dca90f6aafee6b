// workspace-context's trusted roots (decision D3) come from the workspaceRoots service: an
// instruction link in the primary repository that ends in an available additional root is
// followed; without the root the link escapes and is not loaded.
import { symlinkSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { TempTree } from '@dsh/testkit'
import { RootRegistry } from '../src/index.ts'
import { multiRootRig, type Rig } from './support/rig.ts'

let rigs: Rig[] = []
afterEach(async () => {
  for (const rig of rigs) await rig.host.dispose()
  await rigs[0]?.tree.dispose()
  rigs = []
})

async function rigOver(tree?: TempTree): Promise<Rig> {
  const rig = await multiRootRig({ 'repo-a/.git/': null, 'repo-b/shared/AGENTS.md': 'Shared rule from b.\n' }, {}, { workspaceContext: true, ...(tree === undefined ? {} : { tree }) })
  rigs.push(rig)
  return rig
}

async function firstRequestText(rig: Rig): Promise<string> {
  const before = rig.requests.length
  const agent = await rig.start('repo-a', { responses: [{ text: 'done' }] })
  await agent.prompt('go')
  return (rig.requests[before]?.messages ?? []).map((message) => message.content ?? '').join('\n')
}

describe('trusted roots from the service', () => {
  it('a primary-repository link into an available additional root is followed; without the root it escapes', async () => {
    const rig = await rigOver()
    symlinkSync(rig.tree.path('repo-b/shared/AGENTS.md'), rig.tree.path('repo-a/AGENTS.md'))
    expect(await firstRequestText(rig)).not.toContain('Shared rule from b.')
    expect(rig.warnings.some((line) => line.includes('links outside the trusted roots'))).toBe(true)
    await new RootRegistry({ dshHome: rig.tree.path('home') }).add(rig.tree.path('repo-a'), rig.tree.path('repo-b'))
    const second = await rigOver(rig.tree)
    expect(await firstRequestText(second)).toContain('Instructions from: AGENTS.md\n\nShared rule from b.')
  })
})

describe('trusted roots during a session', () => {
  it('a root added in the middle of a session is trusted from the next examination on, and no longer once it is removed', async () => {
    const rig = await rigOver()
    symlinkSync(rig.tree.path('repo-b/shared/AGENTS.md'), rig.tree.path('repo-a/AGENTS.md'))
    writeFileSync(rig.tree.path('repo-a/a.ts'), 'a\n')
    const read = { toolCalls: [{ name: 'read', arguments: { file_path: 'a.ts' } }] }
    const agent = await rig.start('repo-a', { responses: [{ text: 'one' }, read, { text: 'two' }, read, { text: 'three' }] })
    await agent.prompt('one')
    await rig.roots(agent).add(rig.tree.path('repo-b'))
    await agent.prompt('two')
    const afterAdd = rig.requests.at(-1)?.messages.at(-1)?.content ?? ''
    expect(afterAdd).toContain('Shared rule from b.')
    await rig.roots(agent).remove('1')
    await agent.prompt('three')
    // The link escapes again: workspace-context says the instructions loaded through it may be outdated.
    const afterRemove = rig.requests.at(-1)?.messages.at(-1)?.content ?? ''
    expect(afterRemove).toContain('Instructions outdated: AGENTS.md')
    expect(afterRemove).toContain('(it links outside the trusted roots)')
  })
})
