// "Always" for a web_fetch question covers the URL's host, through the built `dsh acp` (ask mode,
// the editor's default) with the scripted model and a real HTTP server on loopback (reachable with
// agent.webFetchPrivateNetwork: true): the first fetch from 127.0.0.1 asks and offers that host,
// a second fetch from it runs without asking, a fetch from another host (localhost, the same
// server) asks again and now offers the whole tool besides; the session log keeps the answer as
// the rule web_fetch(domain:127.0.0.1).
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { startPageServer, tempTree, type PageServer, type TempTree } from '@dsh/testkit'
import { spawnAcp, type AcpProcess } from './acp-driver.ts'
import { writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
let server: PageServer | undefined
let acp: AcpProcess | undefined

afterEach(async () => {
  acp?.child.kill('SIGKILL')
  acp = undefined
  await server?.close()
  server = undefined
  await tree?.dispose()
})

/** Serves every path as a small HTML page naming it; resolves with the port. */
async function start(): Promise<number> {
  server = await startPageServer((request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><p>page ${request.url ?? ''}</p></body></html>`))
  return server.port
}

const fetchCall = (url: string) => ({ toolCalls: [{ name: 'web_fetch', arguments: { url } }] })

describe('web_fetch approvals in the editor', () => {
  it('"always" covers the host asked about, and another host asks again', async () => {
    tree = await tempTree({ 'work/.git/': null, 'config.yaml': 'agent:\n  webFetchPrivateNetwork: true\n' })
    const port = await start()
    const script = writeScript(tree.root, 'script.json', { responses: [fetchCall(`http://127.0.0.1:${port}/a`), fetchCall(`http://127.0.0.1:${port}/b`), fetchCall(`http://localhost:${port}/c`), { text: 'fetched' }] })
    const answers = ['allow-always', 'allow-once']
    acp = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--config', tree.path('config.yaml')], { cwd: tree.path('work'), home: tree.root, answer: () => answers.shift() ?? 'reject' })
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read the pages' }] })).toEqual({ stopReason: 'end_turn' })
    expect(acp.questions).toEqual([`Fetch http://127.0.0.1:${port}/a`, `Fetch http://localhost:${port}/c`])
    expect(acp.offered).toEqual([
      ['Allow once', 'Always allow fetches from 127.0.0.1 in this session', 'Reject'],
      ['Allow once', 'Always allow fetches from localhost in this session', 'Always allow every web_fetch call in this session', 'Reject'],
    ])
    const events = readFileSync(tree.path(`home/sessions/${sessionId}.jsonl`), 'utf8').trim().split('\n').map((line): unknown => JSON.parse(line))
    const decided = events.filter((event) => typeof event === 'object' && event !== null && Reflect.get(event, 'type') === 'tool/permission')
    expect(decided).toMatchObject([{ data: { by: 'answer', remember: 'web_fetch(domain:127.0.0.1)' } }, { data: { by: 'rule' } }, { data: { by: 'answer' } }])
    // Each page reached the model, the one allowed by the remembered host included.
    const log = JSON.stringify(events)
    for (const page of ['page /a', 'page /b', 'page /c']) expect(log).toContain(page)
  }, 60_000)
})
