// Custom commands over ACP through the built binary: the session's commands are advertised in one
// `available_commands_update` before the first prompt's updates, and a `/name args` prompt sends
// the command's expanded body; an unknown `/name` goes as typed.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { spawnAcp, type AcpProcess } from './acp-driver.ts'
import { readRequests, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
let acp: AcpProcess | undefined
afterEach(async () => {
  acp?.child.kill('SIGKILL')
  await tree?.dispose()
})

describe('dsh acp with custom commands', () => {
  it('advertises the commands and expands /release 3.1', async () => {
    tree = await tempTree({
      'work/.git/': null,
      'work/.dsh/commands/release.md': '---\ndescription: Cut a release\nargument-hint: VERSION\n---\nRelease version $1.\n',
      'work/.dsh/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the app.\n---\nDeploy now.\n',
    })
    const script = writeScript(tree.root, 'script.json', { responses: [{ text: 'released' }, { text: 'plain' }] })
    acp = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--request-log', tree.path('requests.jsonl')], { cwd: tree.path('work'), home: tree.root })
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/release 3.1' }] })).toEqual({ stopReason: 'end_turn' })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/unknown thing' }] })).toEqual({ stopReason: 'end_turn' })
    const advertised = acp.updates.map((note) => note.update).filter((update) => update.sessionUpdate === 'available_commands_update')
    expect(advertised).toEqual([
      {
        sessionUpdate: 'available_commands_update',
        availableCommands: [
          // The built-in /rewind first: each update replaces the editor's list, so there is one.
          { name: 'rewind', description: expect.stringContaining('list the turns'), input: { hint: 'N [code|conversation] [yes] | undo' } },
          // dsh's bundled /init, then the project's files.
          { name: 'init', description: "write or improve this project's AGENTS.md" },
          { name: 'release', description: 'Cut a release', input: { hint: 'VERSION' } },
          { name: 'deploy', description: 'Deploy the app.' },
        ],
      },
    ])
    const requests = readRequests(tree.path('requests.jsonl'))
    expect(requests[0]?.messages.find((message) => message.role === 'user')?.content).toBe('Release version 3.1.\n')
    expect(requests[1]?.messages.filter((message) => message.role === 'user').at(-1)?.content).toBe('/unknown thing')
  })

  it('/ship of a skill with allowed-tools records its grant just before the turn the prompt starts', async () => {
    tree = await tempTree({
      'work/.git/': null,
      'home/skills/ship/SKILL.md': '---\nname: ship\ndescription: Ship it.\nallowed-tools: Bash(echo granted-call:*)\n---\nShip now.\n',
    })
    const script = writeScript(tree.root, 'script.json', { responses: [{ text: 'shipped' }] })
    acp = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`], { cwd: tree.path('work'), home: tree.root })
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/ship' }] })).toEqual({ stopReason: 'end_turn' })
    const sessions = tree.path('home/sessions')
    const file = readdirSync(sessions, { recursive: true }).map(String).find((name) => name.includes(sessionId) && name.endsWith('.jsonl'))
    const types = readFileSync(join(sessions, file ?? ''), 'utf8').split('\n').filter((line) => line !== '').map((line): { type?: unknown; data?: unknown } => {
        const value: unknown = JSON.parse(line)
        return typeof value === 'object' && value !== null ? value : {}
      })
    const at = types.findIndex((event) => event.type === 'skills/grant')
    expect(types[at]?.data).toEqual({ skill: 'ship', file: tree.path('home/skills/ship/SKILL.md'), rules: ['bash(echo granted-call:*)'], scope: 'next-turn' })
    expect(types.slice(at + 1).find((event) => event.type === 'turn/start' || event.type === 'turn/end')?.type).toBe('turn/start')
    expect(types.slice(0, at).some((event) => event.type === 'turn/start')).toBe(false)
  })
})
