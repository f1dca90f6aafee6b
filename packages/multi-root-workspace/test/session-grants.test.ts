// Grants are per session: two sessions on one host, each with its own additional roots, write
// only inside their own primary root, their own available roots and the shared temp root; a write
// elsewhere is an error result listing the session's allowed roots. A root that goes missing or
// is redirected, or whose registry cannot be read, stops being writable at once.
import { existsSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolResultMessage } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { createHost, type Agent, type Host } from '@dsh/runtime'
import { tempTree, type TempTree } from '@dsh/testkit'
import { coreTools } from '@dsh/tools'
import { createMultiRootWorkspacePlugin, RootRegistry, type SessionRoots } from '../src/index.ts'
import { write } from './support/rig.ts'

let tree: TempTree
let host: Host
afterEach(async () => {
  await host?.dispose()
  await tree?.dispose()
})

async function compose(): Promise<void> {
  tree = await tempTree({ 'home/': null, 'repo-a/.git/': null, 'repo-b/.git/': null, 'lib-a/': null, 'lib-b/': null, 'tmp/': null, 'elsewhere/': null })
  host = await createHost({ dshHome: tree.path('home'), fs: createLocalFileSystem({ writableRoots: [] }), tools: coreTools(), sharedWritableRoots: [tree.path('tmp')], log: () => undefined })
  await host.ctx.plugin(createMultiRootWorkspacePlugin({ warn: () => undefined }), {})
}

const start = (cwd: string, script: ModelScript): Promise<Agent> => host.startAgent({ cwd: tree.path(cwd), provider: createScriptedProvider(script) })

function rootsOf(agent: Agent): SessionRoots {
  // The service is this package's RootsService, whose sessions are SessionRoots.
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion
  return host.ctx.get('workspaceRoots')?.session(agent.session) as SessionRoots
}

function results(agent: Agent): ToolResultMessage[] {
  // tool/result events carry `{ message }` (runtime contract).
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion
  return agent.session.events.filter((event) => event.type === 'tool/result').map((event) => (event.data as { message: ToolResultMessage }).message)
}

const text = (message: ToolResultMessage | undefined): string => message?.content.map((block) => block.text).join('') ?? ''

describe('per-session grants', () => {
  it('two sessions on one host cannot write into each other\'s roots', async () => {
    await compose()
    await new RootRegistry({ dshHome: tree.path('home') }).add(tree.path('repo-a'), tree.path('lib-a'))
    const targets = ['repo-a/a.txt', 'lib-a/a.txt', 'repo-b/a.txt', 'lib-b/a.txt', 'tmp/a.txt']
    const agentA = await start('repo-a', { responses: [...targets.map((target) => write(tree.path(target), 'from A')), { text: 'A done' }] })
    const agentB = await start('repo-b', { responses: [...targets.map((target) => write(tree.path(target.replace('a.txt', 'b.txt')), 'from B')), { text: 'B done' }] })
    await rootsOf(agentB).addForSession(tree.path('lib-b'))
    await agentA.prompt('write everywhere')
    await agentB.prompt('write everywhere')
    expect(results(agentA).map((result) => result.isError)).toEqual([false, false, true, true, false])
    expect(results(agentB).map((result) => result.isError)).toEqual([true, true, false, false, false])
    expect(text(results(agentA)[2])).toBe(`Cannot write ${tree.path('repo-b/a.txt')}: it is outside the writable roots (${tree.path('repo-a')}, ${tree.path('tmp')}, ${tree.path('lib-a')}). Choose a path inside one of them.`)
    expect(text(results(agentB)[1])).toBe(`Cannot write ${tree.path('lib-a/b.txt')}: it is outside the writable roots (${tree.path('repo-b')}, ${tree.path('tmp')}, ${tree.path('lib-b')}). Choose a path inside one of them.`)
    expect(['repo-b/a.txt', 'lib-b/a.txt', 'repo-a/b.txt', 'lib-a/b.txt'].filter((path) => existsSync(tree.path(path)))).toEqual([])
    expect(readFileSync(tree.path('lib-a/a.txt'), 'utf8')).toBe('from A')
    expect(readFileSync(tree.path('lib-b/b.txt'), 'utf8')).toBe('from B')
  })

  it('a root that goes missing or is redirected is not writable, and is again once it is back', async () => {
    await compose()
    symlinkSync(tree.path('lib-a'), tree.path('lib-link'))
    await new RootRegistry({ dshHome: tree.path('home') }).add(tree.path('repo-a'), tree.path('lib-link'))
    const agent = await start('repo-a', { responses: [write(tree.path('lib-link/1.txt'), '1'), { text: 'one' }, write(tree.path('lib-link/2.txt'), '2'), { text: 'two' }, write(tree.path('lib-link/3.txt'), '3'), { text: 'three' }, write(tree.path('lib-link/4.txt'), '4'), { text: 'four' }] })
    await agent.prompt('one')
    rmSync(tree.path('lib-link'))
    symlinkSync(tree.path('elsewhere'), tree.path('lib-link'))
    await agent.prompt('two')
    rmSync(tree.path('lib-link'))
    symlinkSync(tree.path('lib-a'), tree.path('lib-link'))
    renameSync(tree.path('lib-a'), tree.path('lib-a-away'))
    await agent.prompt('three')
    renameSync(tree.path('lib-a-away'), tree.path('lib-a'))
    await agent.prompt('four')
    expect(results(agent).map((result) => result.isError)).toEqual([false, true, true, false])
    expect(readFileSync(tree.path('lib-a/4.txt'), 'utf8')).toBe('4')
    expect(existsSync(tree.path('elsewhere/2.txt'))).toBe(false)
    expect(text(results(agent)[1])).toContain(`outside the writable roots (${tree.path('repo-a')}, ${tree.path('tmp')})`)
  })

  it('while the registry cannot be read, no registered root is writable (session-only roots stay)', async () => {
    await compose()
    await new RootRegistry({ dshHome: tree.path('home') }).add(tree.path('repo-a'), tree.path('lib-a'))
    const agent = await start('repo-a', { responses: [write(tree.path('lib-a/1.txt'), '1'), write(tree.path('lib-b/1.txt'), '1'), { text: 'one' }] })
    await rootsOf(agent).addForSession(tree.path('lib-b'))
    writeFileSync(tree.path('home/workspace-roots.json'), '{ not json')
    await agent.prompt('one')
    expect(results(agent).map((result) => result.isError)).toEqual([true, false])
    expect(existsSync(tree.path('lib-a/1.txt'))).toBe(false)
  })

  it('a session-only root is granted to that session and to its delegated children, not to other sessions', async () => {
    await compose()
    const parent = await start('repo-a', { responses: [{ text: 'parent' }] })
    const sibling = await start('repo-a', { responses: [write(tree.path('lib-b/s.txt'), 's'), { text: 'sibling' }] })
    await rootsOf(parent).addForSession(tree.path('lib-b'))
    const child = await host.startAgent({ cwd: tree.path('repo-a'), provider: createScriptedProvider({ responses: [write(tree.path('lib-b/c.txt'), 'c'), { text: 'child' }] }), parentSession: parent.session.id, delegationDepth: 1 })
    await child.prompt('write')
    await sibling.prompt('write')
    expect(results(child).map((result) => result.isError)).toEqual([false])
    expect(results(sibling).map((result) => result.isError)).toEqual([true])
    expect(rootsOf(child).list().roots.map((root) => [root.origin, root.path])).toEqual([['session', tree.path('lib-b')]])
    await expect(rootsOf(child).remove('1')).rejects.toMatchObject({ code: 'invalid-ref' })
  })
})
