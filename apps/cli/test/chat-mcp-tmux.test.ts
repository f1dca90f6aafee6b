// /mcp in a real chat (tmux, 120×40, the built binary) with a real MCP server from npm
// (@modelcontextprotocol/server-everything) and one that cannot start: /mcp lists both with their
// states; a call of one of its tools shows as `everything › echo`; `/mcp disable everything` takes
// its tools out of the next request and refuses a call of one with the way back; `/mcp enable`
// brings them back.
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { chatArgs } from './chat-steps.ts'
import { serverScript } from './mcp-servers.ts'
import { readRequests, writeScript, type RequestBody } from './run-dsh.ts'
import type { TmuxSession } from './tmux-session.ts'
import { tmuxChat } from './tmux-chat.ts'

const chat = tmuxChat()

async function send(session: TmuxSession, line: string): Promise<void> {
  await session.keys([line], { literal: true })
  await session.keys(['Enter'])
}

const echo = (message: string) => ({ toolCalls: [{ name: 'mcp__everything__echo', arguments: { message } }] })
const mcpTools = (body: RequestBody | undefined): string[] => (body?.tools ?? []).map((tool) => JSON.stringify(tool).match(/"name":"([^"]+)"/)?.[1] ?? '').filter((name) => name.startsWith('mcp__'))

describe('/mcp in the chat', () => {
  it('lists the servers with their states, shows `server › tool` rows, and turns a server off and on for the session', async () => {
    const w = await chat.workspace()
    const servers = w.tree.path('servers.json')
    writeFileSync(servers, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [serverScript('server-everything')] }, ghost: { command: 'no-such-mcp-command-anywhere' } } }))
    const script = writeScript(w.tree.path('scripts'), 'mcp.json', {
      // The first step also calls a tool of the server that cannot start: a call waits for its server, so both states are settled after it.
      responses: [{ toolCalls: [...echo('first').toolCalls, { name: 'mcp__ghost__anything', arguments: {} }] }, { text: 'Echoed once.' }, echo('while off'), { text: 'Could not echo.' }, { text: 'Back on.' }],
    })
    const tmux = await chat.start(chatArgs(w, script, '--yes', '--mcp-config', servers, '--request-log', w.log), { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    await send(tmux, 'echo first')
    const row = (await tmux.waitFor(/Echoed once\./)).join('\n')
    expect(row).toMatch(/everything › echo/)
    expect(row).not.toContain('mcp__everything__echo')
    expect(mcpTools(readRequests(w.log).at(-1))).toContain('mcp__everything__echo')
    await send(tmux, '/mcp')
    const listing = (await tmux.waitFor(/MCP servers:\n.*everything.*\n.*ghost.*failed/)).join('\n')
    expect(listing).toMatch(/MCP servers:\n {2}everything {2}stdio {2}--mcp-config {2}connected, \d+ tools\n {2}ghost {7}stdio {2}--mcp-config {2}failed: command not found: no-such-mcp-command-anywhere/)
    await send(tmux, '/mcp disable everything')
    await tmux.waitFor(/everything is off for this session: its tools leave the requests from the next step/)
    await send(tmux, '/mcp')
    await tmux.waitFor(/connected, \d+ tools · off for this session \(\/mcp enable everything\)/)
    await send(tmux, 'echo again')
    await tmux.waitFor(/Could not echo\./)
    const [offRequest, refused] = readRequests(w.log).slice(-2)
    expect(mcpTools(offRequest)).toEqual([])
    expect(refused?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'The tool "mcp__everything__echo" is turned off for this session (the user can turn it back on with /mcp enable everything). Use the tools you were given instead.' })
    await send(tmux, '/mcp enable everything')
    await tmux.waitFor(/everything is on again for this session: its tools join the requests from the next step/)
    await send(tmux, 'and now')
    await tmux.waitFor(/Back on\./)
    expect(mcpTools(readRequests(w.log).at(-1))).toContain('mcp__everything__echo')
  }, 120_000)
})
