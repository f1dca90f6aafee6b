// `dsh web` over real HTTP on loopback against the built binary (scripted model): the printed URL,
// the token (query → cookie + redirect, Authorization header), Host and Origin checks, routes that
// only work on live sessions (never on a path the client names), atomic document saves the next
// model request carries, JSON 4xx answers that leave everything as it was, concurrent sessions.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ModelScript } from '@dsh/llm-scripted'
import { runDsh, writeScript, type RequestBody } from './run-dsh.ts'
import { browserCookie, rawGet, rawRequest, startWeb, streamedText, turnFinished, watchEvents, watchStream, type StreamEvent, type WebProcess } from './web-harness.ts'

let tree: TempTree | undefined
let web: WebProcess | undefined
afterEach(async () => {
  await web?.stop()
  web = undefined
  await tree?.dispose()
  tree = undefined
})

/** The current test tree (every test starts one through {@link start}). */
const here = (): TempTree => {
  if (tree === undefined) throw new Error('no test tree yet')
  return tree
}

const guardConfig = 'maintainerDocGuard:\n  enabled: true\n'

async function start(responses: ModelScript['responses'], extra: readonly string[] = [], config = guardConfig): Promise<WebProcess> {
  tree ??= await tempTree({ 'repo/.git/': null, 'repo/cfg.yaml': config, 'other/': null, 'home/': null })
  const script = writeScript(tree.path('.'), 'script.json', { responses })
  web = await startWeb(['--model', `scripted:${script}`, '--config', 'cfg.yaml', '--request-log', tree.path('requests.jsonl'), ...extra], { cwd: tree.path('repo'), home: tree.path('home') })
  return web
}

/** The approval questions among the events, in order. */
const asked = (events: readonly StreamEvent[]): NonNullable<StreamEvent['approval']>[] => events.flatMap((event) => (event.approval === undefined ? [] : [event.approval]))
const firstSession = async (w: WebProcess): Promise<string> => (await w.api<{ firstSession: string }>('GET', '/api/state')).body.firstSession
const requests = (): RequestBody[] =>
  readFileSync(here().path('requests.jsonl'), 'utf8')
    .trim()
    .split('\n')
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the request log is written by dsh itself with this shape
    .map((line) => JSON.parse(line) as RequestBody)

describe('dsh web: the URL and the token', () => {
  it('prints http://127.0.0.1:PORT/?token=TOKEN alone on its line, with a new token each start', async () => {
    const first = await start([])
    expect(first.output().stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}\n$/)
    const token = first.token
    expect(await first.stop()).toBe(143)
    web = undefined
    const second = await start([])
    expect(second.token).not.toBe(token)
  })

  it('trades the query token for a one-time ticket on the private host name, which becomes a cookie that is not the token; refuses a request without it', async () => {
    const w = await start([])
    const host = { host: `127.0.0.1:${w.port}` }
    const bare = await rawGet(w.port, '/api/state', host)
    expect(bare.status).toBe(401)
    expect(JSON.parse(bare.body)).toEqual({ error: 'a token is needed; open the URL dsh web printed (it carries the token)' })
    const page401 = await rawGet(w.port, '/', host)
    expect(page401.status).toBe(401)
    expect(page401.headers['content-type']).toContain('text/html')
    expect((await rawGet(w.port, '/?token=wrong', host)).status).toBe(401)
    const first = await rawGet(w.port, `/?token=${w.token}`, host)
    expect(first.status).toBe(303)
    expect(first.headers['set-cookie']).toBeUndefined()
    expect(first.headers['cache-control']).toBe('no-store')
    const moved = new URL(String(first.headers['location']))
    expect(moved.hostname).toMatch(/^dsh-[0-9a-f]{12}\.localhost$/)
    expect(moved.port).toBe(String(w.port))
    const ticket = moved.searchParams.get('ticket') ?? ''
    const privateHost = { host: moved.host }
    // A ticket is for the private host name only, and for one use.
    expect((await rawGet(w.port, `/?ticket=${ticket}`, host)).status).toBe(401)
    const second = await rawGet(w.port, `/?ticket=${ticket}`, privateHost)
    expect(second.status).toBe(303)
    expect(second.headers['location']).toBe('/')
    expect(second.headers['cache-control']).toBe('no-store')
    expect((await rawGet(w.port, `/?ticket=${ticket}`, privateHost)).status).toBe(401)
    const cookies = [second.headers['set-cookie'] ?? []].flat()
    const session = cookies.find((line) => line.startsWith(`dsh_web_${w.port}=`) && !line.includes('Max-Age=0'))
    expect(session).toContain('HttpOnly')
    expect(session).toContain('SameSite=Strict')
    expect(session).toContain('Path=/')
    expect(session).not.toContain('Domain')
    expect(session).not.toContain(w.token)
    // Variants another local page may have planted are cleared.
    expect(cookies).toContainEqual(expect.stringMatching(new RegExp(`^dsh_web_${w.port}=; Path=/api; Max-Age=0`)))
    const cookie = (session ?? '').split(';')[0] ?? ''
    const page = await rawGet(w.port, '/', { ...privateHost, cookie })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<script type="module" src="/assets/app.js"></script>')
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    // The token itself is no cookie.
    expect((await rawGet(w.port, '/api/state', { ...privateHost, cookie: `dsh_web_${w.port}=${w.token}` })).status).toBe(401)
    // A planted cookie of the same name sent first does not lock the user out.
    const planted = await rawGet(w.port, '/api/state', { ...privateHost, cookie: `dsh_web_${w.port}=planted; ${cookie}` })
    expect(planted.status).toBe(200)
    expect(planted.headers['cache-control']).toBe('no-store')
    expect((await rawGet(w.port, '/api/state', { ...host, authorization: `Bearer ${w.token}` })).status).toBe(200)
    expect((await rawGet(w.port, '/api/state', { ...host, authorization: 'Bearer nope' })).status).toBe(401)
  })

  it('refuses a body over the limit from its Content-Length before reading it, and a chunked one at the limit', async () => {
    const w = await start([])
    const id = await firstSession(w)
    const declared = await rawRequest(w.port, 'POST', `/api/sessions/${id}/prompt`, { host: `127.0.0.1:${w.port}`, authorization: `Bearer ${w.token}`, 'content-type': 'application/json', 'content-length': String(600 * 1024 * 1024) }, [])
    expect(declared.status).toBe(413)
    expect(declared.headers['connection']).toBe('close')
    const chunks = Array.from({ length: 3 }, () => Buffer.alloc(1024 * 1024, 0x61))
    const chunked = await rawRequest(w.port, 'POST', `/api/sessions/${id}/prompt`, { host: `127.0.0.1:${w.port}`, authorization: `Bearer ${w.token}`, 'content-type': 'application/json' }, chunks)
    expect(chunked.status).toBe(413)
    expect(JSON.parse(chunked.body)).toEqual({ error: 'the body is larger than 2097152 bytes' })
  })

  it('refuses a foreign Host (DNS rebinding), a cross-site Origin and a no-Origin request from another port of this host, even with the token', async () => {
    const w = await start([])
    const auth = { authorization: `Bearer ${w.token}` }
    const foreign = await rawGet(w.port, '/api/state', { ...auth, host: `attacker.example:${w.port}` })
    expect(foreign.status).toBe(421)
    expect(JSON.parse(foreign.body)).toEqual({ error: `Host "attacker.example:${w.port}" is not this server; open http://127.0.0.1:${w.port}/` })
    expect((await rawGet(w.port, '/api/state', { ...auth, host: `127.0.0.1:${w.port + 1}` })).status).toBe(421)
    expect((await rawGet(w.port, `/?token=${w.token}`, { host: `evil.test:${w.port}` })).status).toBe(421)
    const crossSite = await rawGet(w.port, '/api/state', { ...auth, host: `127.0.0.1:${w.port}`, origin: 'http://evil.test' })
    expect(crossSite.status).toBe(403)
    expect(JSON.parse(crossSite.body)).toEqual({ error: 'cross-site request from "http://evil.test" refused' })
    expect((await rawGet(w.port, '/api/state', { ...auth, host: `localhost:${w.port}`, origin: `http://localhost:${w.port}` })).status).toBe(200)
    const cookie = await browserCookie(w)
    const sameSite = await rawGet(w.port, '/api/state', { cookie, host: `127.0.0.1:${w.port}`, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' })
    expect(sameSite).toMatchObject({ status: 403, body: JSON.stringify({ error: 'request from another site on this host refused' }) })
    expect((await rawGet(w.port, '/api/state', { cookie, host: `127.0.0.1:${w.port}`, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate' })).status).toBe(403)
    expect((await rawGet(w.port, '/', { cookie, host: `127.0.0.1:${w.port}`, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate' })).status).toBe(200)
    expect((await rawGet(w.port, '/api/state', { cookie, host: `127.0.0.1:${w.port}`, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' })).status).toBe(200)
  })
})

describe('dsh web: sessions, streaming, approvals', () => {
  it('streams the answer of a prompt, and the session appears in dsh sessions list as soon as the turn ends', async () => {
    const w = await start([{ text: 'Hello from the web host.' }])
    const id = await firstSession(w)
    const watch = await watchEvents(w, id)
    expect(await w.api('POST', `/api/sessions/${id}/prompt`, { text: 'say hello' })).toEqual({ status: 202, body: { accepted: true } })
    await watch.until(turnFinished)
    watch.close()
    expect(streamedText(watch.events)).toBe('Hello from the web host.')
    expect(watch.events).toContainEqual({ kind: 'prompt', text: 'say hello' })
    const list = await runDsh(['sessions', 'list', '--json'], { cwd: here().path('repo'), env: { DSH_HOME: here().path('home') } })
    expect(JSON.parse(list.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ id, title: 'say hello' })]))
    const history = await w.api<{ items: unknown[] }>('GET', `/api/sessions/${id}/history`)
    expect(history.body.items).toEqual([
      { kind: 'user', text: 'say hello', turn: 1 },
      { kind: 'assistant', text: 'Hello from the web host.' },
    ])
  })

  it('asks before bash: "once" runs it, "reject" does not, and the model reads both outcomes', async () => {
    const w = await start([
      { toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo approved-run' } }] },
      { text: 'ran it' },
      { toolCalls: [{ id: 'c2', name: 'bash', arguments: { command: 'echo rejected-run' } }] },
      { text: 'did not run it' },
    ])
    const id = await firstSession(w)
    const watch = await watchEvents(w, id)
    await w.api('POST', `/api/sessions/${id}/prompt`, { text: 'run it' })
    const approval = (await watch.until((events) => events.some((event) => event.approval !== undefined))).find((event) => event.approval !== undefined)?.approval
    if (approval === undefined) throw new Error('no approval')
    expect(approval).toMatchObject({ tool: 'bash', code: 'echo approved-run', always: { kind: 'command-prefix', prefix: 'echo approved-run' } })
    expect(await w.api('POST', `/api/sessions/${id}/approvals/${approval.id}`, { choice: 'maybe' })).toEqual({ status: 400, body: { error: 'choice: Invalid option: expected one of "once"|"always"|"always-tool"|"reject"' } })
    expect(await w.api('POST', `/api/sessions/${id}/approvals/${approval.id}`, { choice: 'once' })).toEqual({ status: 200, body: { answered: true } })
    await watch.until(turnFinished)
    const count = watch.events.length
    await w.api('POST', `/api/sessions/${id}/prompt`, { text: 'again' })
    const second = (await watch.until((events) => events.slice(count).some((event) => event.approval !== undefined))).slice(count).find((event) => event.approval !== undefined)?.approval
    if (second === undefined) throw new Error('no second approval')
    expect((await w.api('POST', `/api/sessions/${id}/approvals/${second.id}`, { choice: 'reject' })).status).toBe(200)
    await watch.until((events) => turnFinished(events.slice(count)))
    watch.close()
    const tools = requests()
      .at(-1)
      ?.messages.filter((message) => message.role === 'tool')
    expect(tools?.map((message) => [message.tool_call_id, message.content])).toEqual([
      ['c1', expect.stringContaining('approved-run')],
      ['c2', 'The bash call was not approved (permission mode ask asks before running bash). Ask the user how to proceed or choose another approach.'],
    ])
  })

  it('"always" allows the command prefix for the rest of the session: the same prefix runs unasked, another one asks', async () => {
    const w = await start([
      { toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo first --short' } }] },
      { toolCalls: [{ id: 'c2', name: 'bash', arguments: { command: 'echo first again' } }] },
      { toolCalls: [{ id: 'c3', name: 'bash', arguments: { command: 'pwd' } }] },
      { text: 'done' },
    ], [], 'maintainerDocGuard:\n  enabled: false\n')
    const id = await firstSession(w)
    const watch = await watchEvents(w, id)
    await w.api('POST', `/api/sessions/${id}/prompt`, { text: 'go' })
    const first = await watch.until((events) => asked(events).length === 1)
    const approval = asked(first)[0]
    expect(approval).toMatchObject({ code: 'echo first --short', always: { kind: 'command-prefix', prefix: 'echo first' } })
    expect(await w.api('POST', `/api/sessions/${id}/approvals/${approval?.id ?? ''}`, { choice: 'always' })).toEqual({ status: 200, body: { answered: true } })
    const second = asked(await watch.until((events) => asked(events).length === 2))[1]
    expect(second?.code).toBe('pwd')
    await w.api('POST', `/api/sessions/${id}/approvals/${second?.id ?? ''}`, { choice: 'reject', note: 'not now' })
    await watch.until(turnFinished)
    watch.close()
    const tools = requests().at(-1)?.messages.filter((message) => message.role === 'tool')
    expect(tools?.map((message) => [message.tool_call_id, message.content])).toEqual([
      ['c1', expect.stringContaining('first --short')],
      ['c2', expect.stringContaining('first again')],
      ['c3', 'The bash call was not approved (permission mode ask asks before running bash). The user said: "not now". Ask the user how to proceed or choose another approach.'],
    ])
  })

  it('cancel stops the running turn; a second prompt while one runs is refused with 409', async () => {
    // The answer holds after its first piece: only the cancel can end it.
    const w = await start([{ text: 'one two three four five six seven eight nine ten eleven twelve', holdAfter: 1 }, { text: 'after cancel' }])
    const id = await firstSession(w)
    const watch = await watchEvents(w, id)
    await w.api('POST', `/api/sessions/${id}/prompt`, { text: 'long one' })
    await watch.until((events) => streamedText(events).length > 0)
    expect(await w.api('POST', `/api/sessions/${id}/prompt`, { text: 'too soon' })).toEqual({ status: 409, body: { error: 'a turn is running in this session; wait for it or cancel it' } })
    expect(await w.api('POST', `/api/sessions/${id}/cancel`)).toEqual({ status: 200, body: { cancelled: true } })
    await watch.until((events) => events.some((event) => event.event?.reason === 'cancelled'))
    await watch.until(turnFinished)
    expect(streamedText(watch.events)).not.toContain('twelve')
    expect(await w.api('POST', `/api/sessions/${id}/cancel`)).toEqual({ status: 200, body: { cancelled: false } })
    watch.close()
  })

  it('runs several sessions at once, each with its own stream', async () => {
    const w = await start([
      { text: 'first answer', delayMs: 50 },
      { text: 'second answer', delayMs: 50 },
    ])
    const a = await firstSession(w)
    const b = (await w.api<{ id: string }>('POST', '/api/sessions', {})).body.id
    expect(b).not.toBe(a)
    const [watchA, watchB] = await Promise.all([watchEvents(w, a), watchEvents(w, b)])
    await Promise.all([w.api('POST', `/api/sessions/${a}/prompt`, { text: 'to a' }), w.api('POST', `/api/sessions/${b}/prompt`, { text: 'to b' })])
    await Promise.all([watchA.until(turnFinished), watchB.until(turnFinished)])
    watchA.close()
    watchB.close()
    expect([streamedText(watchA.events), streamedText(watchB.events)].toSorted()).toEqual(['first answer', 'second answer'])
    expect(watchA.events).not.toContainEqual({ kind: 'prompt', text: 'to b' })
    const rows = (await w.api<{ sessions: { id: string }[] }>('GET', '/api/sessions')).body.sessions.map((row) => row.id)
    expect(rows).toEqual(expect.arrayContaining([a, b]))
  })
})

describe('dsh web: the browser-wide stream', () => {
  it('numbers each session\'s events; the history says up to which number it holds; rows say which session waits for an answer; usage figures', async () => {
    const w = await start([{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo hi' } }], usage: { inputTokens: 1000, outputTokens: 50, cacheHitTokens: 0 } }, { text: 'done', usage: { inputTokens: 1200, outputTokens: 30, cacheHitTokens: 1000 } }])
    const id = await firstSession(w)
    const stream = await watchStream(w)
    await stream.until((messages) => messages.some((message) => message.kind === 'hello'))
    const started = (await w.api<{ id: string }>('POST', '/api/sessions', {})).body.id
    await stream.until((messages) => messages.some((message) => message.kind === 'sessions'))
    expect((await w.api('POST', `/api/sessions/${id}/prompt`, { text: 'say hi' })).status).toBe(202)
    const [first] = await stream.until((messages) => messages.some((message) => message.event?.kind === 'approval'))
    expect(first?.kind).toBe('hello')
    const approval = stream.events.find((message) => message.event?.kind === 'approval')?.event?.approval
    expect(approval).toMatchObject({ callId: 'c1', tool: 'bash', code: 'echo hi' })
    const rows = (await w.api<{ sessions: { id: string; waiting: boolean }[] }>('GET', '/api/sessions')).body.sessions
    expect(rows.find((row) => row.id === id)?.waiting).toBe(true)
    expect(rows.find((row) => row.id === started)?.waiting).toBe(false)
    const history = (await w.api<{ seq: number; approvals: { id: string }[] }>('GET', `/api/sessions/${id}/history`)).body
    const mine = stream.events.filter((message) => message.session === id)
    expect(mine.map((message) => message.seq)).toEqual(mine.map((_, index) => index + 1))
    expect(history.seq).toBe(mine.at(-1)?.seq)
    expect(history.approvals.map((item) => item.id)).toEqual([approval?.id])
    await w.api('POST', `/api/sessions/${id}/approvals/${approval?.id ?? ''}`, { choice: 'once' })
    await stream.until((messages) => turnFinished(messages.filter((message) => message.session === id).flatMap((message) => (message.event === undefined ? [] : [message.event]))))
    stream.close()
    expect((await w.api('GET', `/api/sessions/${id}/usage`)).body).toEqual({ contextWindow: 128_000, contextTokens: 1230, cacheHitShare: 1000 / 2200 })
  })
})

describe('dsh web: every route works on a live session, never on a client-named path', () => {
  it('answers 404 for a session that is not live, and refuses to resume one of another directory', async () => {
    const w = await start([{ text: 'ok' }])
    expect(await w.api('GET', '/api/sessions/20990101-000000-abcdef/docs')).toEqual({ status: 404, body: { error: 'session "20990101-000000-abcdef" is not open in this dsh web (open it from the sessions list first)' } })
    expect((await w.api('GET', '/api/sessions/..%2F..%2Fetc/docs')).status).toBe(404)
    const elsewhere = await runDsh(['run', '--cwd', here().path('other'), '--model', `scripted:${here().path('script.json')}`, 'hi'], { cwd: here().path('repo'), env: { DSH_HOME: here().path('home') } })
    const otherId = /session: (\S+)/.exec(elsewhere.stderr)?.[1] ?? ''
    expect(otherId).not.toBe('')
    expect(await w.api('POST', '/api/sessions', { resume: otherId })).toEqual({ status: 404, body: { error: `session ${otherId} works in ${here().path('other')}, not in ${here().path('repo')}` } })
    expect((await w.api<{ sessions: { id: string }[] }>('GET', '/api/sessions')).body.sessions.map((row) => row.id)).not.toContain(otherId)
  })

  it('opens a stored session of its directory with its history, and lists it newest first', async () => {
    const w = await start([{ text: 'stored answer' }])
    const stored = await runDsh(['run', '--model', `scripted:${here().path('script.json')}`, 'an earlier prompt'], { cwd: here().path('repo'), env: { DSH_HOME: here().path('home') } })
    const storedId = /session: (\S+)/.exec(stored.stderr)?.[1] ?? ''
    expect(stored.code).toBe(0)
    expect(await w.api('POST', '/api/sessions', { resume: storedId })).toEqual({ status: 200, body: { id: storedId } })
    expect((await w.api('GET', `/api/sessions/${storedId}/history`)).body).toEqual({ id: storedId, busy: false, seq: 0, approvals: [], usage: { contextWindow: 128_000 }, mode: expect.objectContaining({ current: 'ask' }), todos: [], items: [{ kind: 'user', text: 'an earlier prompt', turn: 1 }, { kind: 'assistant', text: 'stored answer' }] })
    const rows = (await w.api<{ sessions: { id: string; title: string; live: boolean }[] }>('GET', '/api/sessions')).body.sessions
    expect(rows[0]).toMatchObject({ id: storedId, title: 'an earlier prompt', live: true })
  })

  it('leaves out of the sessions list a session nobody prompted (each start makes one) unless it is open', async () => {
    const first = await start([])
    const unused = await firstSession(first)
    await first.stop()
    web = undefined
    const w = await start([])
    const live = await firstSession(w)
    const ids = async (): Promise<string[]> => (await w.api<{ sessions: { id: string }[] }>('GET', '/api/sessions')).body.sessions.map((row) => row.id)
    expect(await ids()).toEqual([live])
    expect(await w.api('POST', '/api/sessions', { resume: unused })).toEqual({ status: 200, body: { id: unused } })
    expect((await ids()).toSorted()).toEqual([live, unused].toSorted())
  })

  it('answers 409 for a session another dsh has open', async () => {
    const w = await start([])
    const other = await startWeb(['--model', `scripted:${here().path('script.json')}`], { cwd: here().path('repo'), home: here().path('home') })
    try {
      const busy = await firstSession(other)
      const answer = await w.api<{ error: string }>('POST', '/api/sessions', { resume: busy })
      expect(answer.status).toBe(409)
      expect(answer.body.error).toMatch(/^SESSION_BUSY: /)
    } finally {
      await other.stop()
    }
  })

  it('ignores no field: a body naming a directory or path is refused with 400 and nothing is written', async () => {
    const w = await start([])
    const id = await firstSession(w)
    await w.api('GET', `/api/sessions/${id}/docs`)
    const before = readdirSync(here().path('other'))
    const named = await w.api('PUT', `/api/sessions/${id}/docs/read`, { name: 'plan.md', content: 'x', cwd: here().path('other') })
    expect(named).toEqual({ status: 400, body: { error: 'body: Unrecognized key: "cwd"' } })
    const traversal = await w.api<{ error: string }>('PUT', `/api/sessions/${id}/docs/read`, { name: '../../other/plan.md', content: 'x' })
    expect(traversal.status).toBe(400)
    expect(traversal.body.error).toMatch(/^DOCS_UNKNOWN_DOCUMENT: /)
    const absolute = await w.api<{ error: string }>('PUT', `/api/sessions/${id}/docs/read`, { name: `${here().path('other')}/plan.md`, content: 'x' })
    expect(absolute.status).toBe(400)
    expect(readdirSync(here().path('other'))).toEqual(before)
    expect((await w.api('GET', `/api/sessions/${id}/docs/read?name=plan.md`)).body).toMatchObject({ content: '' })
  })

  it('answers bad input with a JSON 4xx and leaves the documents as they were', async () => {
    const w = await start([])
    const id = await firstSession(w)
    expect((await w.api('PUT', `/api/sessions/${id}/docs/read`, { name: 'plan.md', content: 'kept' })).status).toBe(200)
    const notJson = await fetch(`${w.origin}/api/sessions/${id}/docs/read`, { method: 'PUT', headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' }, body: '{"name": "plan.md", "content": ' })
    expect(notJson.status).toBe(400)
    expect(await notJson.json()).toEqual({ error: expect.stringMatching(/^the body is not JSON: /) })
    const wrongType = await fetch(`${w.origin}/api/sessions/${id}/docs/read`, { method: 'PUT', headers: { authorization: `Bearer ${w.token}`, 'content-type': 'text/plain' }, body: 'plan.md' })
    expect(wrongType.status).toBe(415)
    expect(await w.api('PUT', `/api/sessions/${id}/docs/read`, { name: 'plan.md', content: 42 })).toEqual({ status: 400, body: { error: 'content: Invalid input: expected string, received number' } })
    expect(await w.api('POST', `/api/sessions/${id}/prompt`, { text: '' })).toEqual({ status: 400, body: { error: 'text: empty message' } })
    expect((await w.api('POST', `/api/sessions/${id}/docs/settings`, { gateMaxDeniesPerTarget: -5 })).status).toBe(400)
    expect((await w.api('POST', `/api/sessions/${id}/folders`, { path: 'relative/dir' })).status).toBe(400)
    expect(readFileSync(here().path('repo/.dsh-maintainer-doc-guard/plan.md'), 'utf8')).toBe('kept')
  })

  it('saves a document atomically (no temporary file left) and the next model request carries the new text', async () => {
    const w = await start([{ text: 'read the plan' }])
    const id = await firstSession(w)
    const docs = await w.api<{ documents: { name: string; saveTo: string }[] }>('GET', `/api/sessions/${id}/docs`)
    expect(docs.body.documents.map((doc) => doc.name)).toEqual(['plan.md', 'conventions.md', 'stack.md', 'state.md', 'maintainer/README.md', 'lessons.md'])
    const saved = await w.api('PUT', `/api/sessions/${id}/docs/read`, { name: 'plan.md', content: '# Plan\n\nShip the web host by Friday.\n' })
    expect(saved).toEqual({ status: 200, body: { path: here().path('repo/.dsh-maintainer-doc-guard/plan.md'), bytes: 37, version: createHash('sha256').update('# Plan\n\nShip the web host by Friday.\n').digest('hex') } })
    expect(readdirSync(here().path('repo/.dsh-maintainer-doc-guard')).filter((name) => name.includes('.tmp') || name.startsWith('.'))).toEqual([])
    const watch = await watchEvents(w, id)
    await w.api('POST', `/api/sessions/${id}/prompt`, { text: 'what is the plan?' })
    await watch.until(turnFinished)
    watch.close()
    expect(JSON.stringify(requests().at(-1)?.messages)).toContain('Ship the web host by Friday.')
  })

  it('refuses a save over a document that changed since the page read it (409, nothing written); the current version saves', async () => {
    const w = await start([])
    const id = await firstSession(w)
    await w.api('PUT', `/api/sessions/${id}/docs/read`, { name: 'state.md', content: 'first\n' })
    const read = await w.api<{ content: string; version: string }>('GET', `/api/sessions/${id}/docs/read?name=state.md`)
    expect(read.body).toMatchObject({ content: 'first\n', version: createHash('sha256').update('first\n').digest('hex') })
    writeFileSync(here().path('repo/.dsh-maintainer-doc-guard/state.md'), 'written by the model meanwhile\n')
    expect(await w.api('PUT', `/api/sessions/${id}/docs/read`, { name: 'state.md', content: 'page edit\n', expected: read.body.version })).toEqual({
      status: 409,
      body: { error: 'DOCS_CHANGED: state.md changed since it was loaded (the model, another tab or an editor saved it); nothing was saved: reload it and apply your edit again' },
    })
    expect(readFileSync(here().path('repo/.dsh-maintainer-doc-guard/state.md'), 'utf8')).toBe('written by the model meanwhile\n')
    expect((await w.api('PUT', `/api/sessions/${id}/docs/read`, { name: 'state.md', content: 'x', expected: 'not-a-version' })).body).toEqual({ error: 'expected: not a document version' })
    const fresh = await w.api<{ version: string }>('GET', `/api/sessions/${id}/docs/read?name=state.md`)
    expect((await w.api('PUT', `/api/sessions/${id}/docs/read`, { name: 'state.md', content: 'page edit\n', expected: fresh.body.version })).status).toBe(200)
    expect(readFileSync(here().path('repo/.dsh-maintainer-doc-guard/state.md'), 'utf8')).toBe('page edit\n')
  })
})
