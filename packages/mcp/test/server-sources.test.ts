// Configuration sources: the .mcp.json shape with ${VAR} and ${VAR:-default}, one-line problems
// naming file, server and what is wrong, precedence with duplicate names, an untrusted project
// .mcp.json that a recorded digest trusts until the file changes, and tool names.
import { writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { assignToolNames, collectServers, mcpJsonDigest, parseMcpJson, projectRecord, readStore, withProject, writeStore } from '@dsh/mcp'

let tree: TempTree | undefined
afterEach(async () => {
  await tree?.dispose()
  tree = undefined
})

describe('.mcp.json-shaped files', () => {
  it('expands variables and reports bad entries in one line each', () => {
    const text = JSON.stringify({
      mcpServers: {
        gh: { command: '${TOOLS:-/opt}/gh-mcp', args: ['--token', '${GH_TOKEN}'], env: { A: '${A:-x}' } },
        web: { type: 'http', url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${MISSING}' } },
        nocmd: {},
        odd: { type: 'pigeon' },
        extra: { command: 'x', colour: 'blue' },
      },
    })
    const read = parseMcpJson(text, { file: '/p/.mcp.json', source: '--mcp-config', env: { GH_TOKEN: 't0k', HOST: 'mcp.example.test' } })
    expect(read.entries.map((entry) => [entry.name, entry.config])).toEqual([['gh', { transport: 'stdio', command: '/opt/gh-mcp', args: ['--token', 't0k'], env: { A: 'x' } }]])
    expect(read.problems).toEqual([
      '/p/.mcp.json: server "web": headers.Authorization: environment variable MISSING is not set (write ${MISSING:-default} for a default)',
      '/p/.mcp.json: server "nocmd": missing "command"',
      '/p/.mcp.json: server "odd": unknown transport "pigeon" (use "stdio" or "http")',
      '/p/.mcp.json: server "extra": unknown key "colour"',
    ])
    expect(parseMcpJson('{ nope', { file: '/p/x.json', source: '--mcp-config', env: {} }).problems[0]).toMatch(/^\/p\/x\.json: invalid JSON \(/)
  })
})

describe('collectServers', () => {
  it('keeps the first of duplicate names, blocks an untrusted .mcp.json, and trusts a recorded digest', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'repo/sub/': null, 'home/': null })
    const mcpJson = JSON.stringify({ mcpServers: { shared: { command: 'from-mcp-json' }, local: { command: 'local' } } })
    writeFileSync(tree.path('repo/.mcp.json'), mcpJson)
    writeFileSync(tree.path('cli.json'), JSON.stringify({ mcpServers: { shared: { command: 'from-cli' } } }))
    const collect = () => collectServers({ dshHome: tree!.path('home'), cwd: tree!.path('repo/sub'), env: {}, mcpConfigFiles: [tree!.path('cli.json')] })
    const first = collect()
    expect(first.projectRoot).toBe(tree.path('repo'))
    expect(first.entries.map((entry) => [entry.name, entry.source, entry.blocked])).toEqual([
      ['shared', '--mcp-config', undefined],
      ['local', '.mcp.json', 'untrusted'],
    ])
    expect(first.problems).toEqual([`${tree.path('repo/.mcp.json')}: server "shared": duplicate name (already defined by ${tree.path('cli.json')}); this one is ignored`])
    const store = readStore(tree.path('home'))
    if (!store.ok) throw new Error(store.problem)
    writeStore(tree.path('home'), withProject(store.content, tree.path('repo'), { ...projectRecord(store.content, tree.path('repo')), trustedMcpJson: mcpJsonDigest(mcpJson) }))
    expect(collect().entries.find((entry) => entry.name === 'local')?.blocked).toBeUndefined()
    writeFileSync(tree.path('repo/.mcp.json'), `${mcpJson}\n`)
    expect(collect().entries.find((entry) => entry.name === 'local')?.blocked).toBe('untrusted')
  })

  it('reports a corrupt store in one line and never rewrites it', async () => {
    tree = await tempTree({ 'home/mcp-servers.json': '{ broken' })
    const collected = collectServers({ dshHome: tree.path('home'), cwd: tree.root, env: {} })
    expect(collected.problems[0]).toMatch(/mcp-servers\.json: invalid JSON \(.*\); fix it or move it aside$/)
  })
})

describe('tool names', () => {
  it('sanitises, sorts, caps at 64 characters and resolves collisions the same way every time', () => {
    const named = assignToolNames([
      { server: 'b', tool: 'x' },
      { server: 'a.b', tool: 'get item' },
      { server: 'a_b', tool: 'get_item' },
      { server: 'long', tool: 'y'.repeat(80) },
    ])
    expect(named.map((entry) => entry.modelName)).toEqual(['mcp__a_b__get_item', 'mcp__a_b__get_item_2', 'mcp__b__x', expect.stringMatching(/^mcp__long__y{44}_[0-9a-f]{8}$/)])
    expect(named.every((entry) => entry.modelName.length <= 64)).toBe(true)
    expect(assignToolNames([{ server: 'x', tool: 'read' }], new Set(['mcp__x__read']))[0]?.modelName).toBe('mcp__x__read_2')
  })
})
