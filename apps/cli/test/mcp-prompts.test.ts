// MCP prompts as slash commands through the built binary, with server-everything's prompts: in
// `dsh chat` (piped) `/mcp__everything__args-prompt Paris` sends the prompt's message as the user
// message and `/help` lists the prompts; through `dsh acp` the session's command list is sent
// again once its server has listed them, and `/mcp__everything__simple-prompt` and the
// `name=value` form expand the same way.
import { writeFileSync } from 'node:fs'
import type { AvailableCommand, McpServer } from '@agentclientprotocol/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { spawnAcp, waitFor, type AcpProcess } from './acp-driver.ts'
import { runDshPiped } from './chat-harness.ts'
import { mcpJson, serverScript } from './mcp-servers.ts'
import { readRequests, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
const running: AcpProcess[] = []
afterEach(async () => {
  for (const acp of running.splice(0)) {
    acp.child.kill('SIGKILL')
    await acp.exited
  }
  await tree?.dispose()
})

const lastUser = (file: string): unknown => readRequests(file).at(-1)?.messages.findLast((message) => message.role === 'user')?.content

describe('MCP prompts as slash commands', () => {
  it('dsh chat lists them in /help and sends a prompt with its arguments as the user message', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'repo/.git/': null })
    writeFileSync(tree.path('servers.json'), mcpJson({ everything: { script: serverScript('server-everything') } }))
    // The first turn's call waits for the server, so its prompts are known before the next line is read.
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'ready' } }] }, { text: 'ready' }, { text: 'sunny' }] })
    const log = tree.path('requests.jsonl')
    const input = 'are you there?\n/help\n/mcp__everything__args-prompt Paris\n/mcp__everything__args-prompt\n'
    const result = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--yes', '--mcp-config', tree.path('servers.json'), '--request-log', log], input, { cwd: tree.root, timeoutMs: 60_000 })
    expect(result.code, result.stderr).toBe(0)
    expect(lastUser(log)).toBe("What's weather in Paris?")
    expect(result.stdout).toMatch(/\/mcp__everything__args-prompt <city> \[state\] +A prompt with two arguments, one required and one optional\n/)
    expect(result.stdout).toMatch(/\/mcp__everything__simple-prompt +A prompt with no arguments\n/)
    expect(result.stdout).toContain('warning: /mcp__everything__args-prompt needs city (<city> [state])\n')
    expect(readRequests(log)).toHaveLength(3)
  })

  it('dsh acp sends the command list again with the prompts of the session\'s server and expands them', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'work/': null })
    const script = writeScript(tree.root, 'script.json', { responses: [{ text: 'simple' }, { text: 'texas' }] })
    const log = tree.path('requests.jsonl')
    const acp = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--request-log', log], { cwd: tree.path('work'), home: tree.root })
    running.push(acp)
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const everything: McpServer = { name: 'everything', command: process.execPath, args: [serverScript('server-everything')], env: [] }
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [everything] })
    const lists = (): AvailableCommand[][] => acp.updates.flatMap((note) => (note.sessionId === sessionId && note.update.sessionUpdate === 'available_commands_update' ? [note.update.availableCommands] : []))
    await waitFor(() => lists().some((list) => list.some((command) => command.name === 'mcp__everything__simple-prompt')), 60_000)
    const last = lists().at(-1) ?? []
    expect(last[0]?.name).toBe('rewind')
    expect(last.filter((command) => command.name.startsWith('mcp__'))).toEqual(expect.arrayContaining([
      { name: 'mcp__everything__args-prompt', description: 'A prompt with two arguments, one required and one optional', input: { hint: '<city> [state]' } },
      { name: 'mcp__everything__simple-prompt', description: 'A prompt with no arguments' },
    ]))
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/mcp__everything__simple-prompt' }] })).toEqual({ stopReason: 'end_turn' })
    expect(lastUser(log)).toBe('This is a simple prompt without arguments.')
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/mcp__everything__args-prompt state=Texas city=Austin' }] })).toEqual({ stopReason: 'end_turn' })
    expect(lastUser(log)).toBe("What's weather in Austin, Texas?")
    acp.child.stdin?.end()
    expect(await acp.exited).toBe(0)
  })
})
