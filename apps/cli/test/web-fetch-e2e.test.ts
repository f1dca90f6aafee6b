// web_fetch through the built binary with the scripted model, against a real HTTP server on
// loopback (reachable only with agent.webFetchPrivateNetwork: true, as the config says): full-auto
// (dsh run's default) fetches and the model gets the page as Markdown; in ask mode dsh run cannot ask, so the call is
// denied unless a rule names the host (Claude Code's WebFetch(domain:…) spelling included); with
// the default guard the loopback server is refused; with sandbox.network: false there is no tool.
import { writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { startPageServer, tempTree, type PageServer, type TempTree } from '@dsh/testkit'
import { readRequests, runDsh, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
let server: PageServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
  await tree?.dispose()
})

async function start(): Promise<string> {
  server = await startPageServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Docs</title></head><body><h2>Usage</h2><p>Call <code>go()</code>.</p></body></html>'))
  return server.url('/docs')
}

const toolResults = (log: string): string[] =>
  readRequests(log)
    .at(-1)
    ?.messages.filter((message) => message.role === 'tool')
    .map((message) => message.content ?? '') ?? []

describe('web_fetch end to end', () => {
  it('fetches in full-auto, is denied in ask mode without a rule and allowed with one, and refuses loopback by default', async () => {
    tree = await tempTree({ 'repo/.git/': null })
    const url = await start()
    writeFileSync(tree.path('private.yaml'), 'agent:\n  webFetchPrivateNetwork: true\n')
    const script = writeScript(tree.root, 'fetch.json', { responses: [{ toolCalls: [{ name: 'web_fetch', arguments: { url } }] }, { text: 'read it' }] })
    const run = async (name: string, ...extra: string[]) => {
      const log = tree?.path(`${name}.jsonl`) ?? ''
      const result = await runDsh(['--dsh-home', tree?.path('home') ?? '', 'run', '--cwd', tree?.path('repo') ?? '', '--model', `scripted:${script}`, '--request-log', log, ...extra, 'read the docs'], { cwd: tree?.root ?? '' })
      expect(result.code, result.stderr).toBe(0)
      return toolResults(log)
    }
    expect(await run('full-auto', '--config', tree.path('private.yaml'), '--permission-mode', 'full-auto')).toEqual([`URL: ${url}\nStatus: 200 (text/html)\nTitle: Docs\n\n## Usage\n\nCall \`go()\`.`])
    const denied = await run('ask', '--config', tree.path('private.yaml'), '--permission-mode', 'ask')
    expect(denied[0]).toMatch(/^The web_fetch call was denied: /)
    expect(await run('ruled', '--config', tree.path('private.yaml'), '--permission-mode', 'ask', '--allowedTools', 'WebFetch(domain:127.0.0.1)')).toEqual([`URL: ${url}\nStatus: 200 (text/html)\nTitle: Docs\n\n## Usage\n\nCall \`go()\`.`])
    expect((await run('guarded', '--permission-mode', 'full-auto'))[0]).toBe('127.0.0.1 resolves to 127.0.0.1, a loopback address: web_fetch reaches public addresses only. For a server on this machine or network, use bash (curl) instead.')
  }, 60_000)

  it('offers no web_fetch when the sandbox has no network, or the config turns it off', async () => {
    tree = await tempTree({ 'repo/.git/': null })
    const script = writeScript(tree.root, 'none.json', { responses: [{ text: 'ok' }, { text: 'ok' }, { text: 'ok' }] })
    const tools = async (config: string) => {
      writeFileSync(tree?.path('c.yaml') ?? '', config)
      const log = tree?.path('tools.jsonl') ?? ''
      const result = await runDsh(['--dsh-home', tree?.path('home') ?? '', 'run', '--cwd', tree?.path('repo') ?? '', '--model', `scripted:${script}`, '--request-log', log, '--config', tree?.path('c.yaml') ?? '', 'hi'], { cwd: tree?.root ?? '' })
      expect(result.code, result.stderr).toBe(0)
      return JSON.stringify(readRequests(log).at(-1)?.tools ?? []).includes('"web_fetch"')
    }
    expect(await tools('agent:\n  todo: true\n')).toBe(true)
    expect(await tools('sandbox:\n  network: false\n')).toBe(false)
    expect(await tools('agent:\n  webFetch: false\n')).toBe(false)
  }, 60_000)
})
