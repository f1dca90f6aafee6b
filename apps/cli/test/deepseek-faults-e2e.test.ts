// dsh against the testkit's DeepSeek imitation when the stream or the answer goes wrong, through
// the built binary: a stream reset after output started is retried with the partial answer never
// in the log or the output twice; an empty answer fails; duplicate call ids are made unique; a
// context-length 400 compacts once and retries; ACP sees an error for headers then silence; chat
// --continue and ACP prompts on a loaded session keep the stored endpoint.
import { readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { startDeepSeekServer, tempTree, type DeepSeekAnswer, type DeepSeekServer, type TempTree } from '@dsh/testkit'
import { spawnAcp, type AcpProcess } from './acp-driver.ts'
import { runDshPiped } from './chat-harness.ts'
import { runDsh, sessionIdOf } from './run-dsh.ts'

let tree: TempTree
let server: DeepSeekServer | undefined
let acp: AcpProcess | undefined
afterEach(async () => {
  acp?.child.kill()
  await acp?.exited
  acp = undefined
  await server?.close()
  server = undefined
  await tree?.dispose()
})

const key = { DEEPSEEK_API_KEY: 'sk-test-key-1234' }
const run = (args: readonly string[], baseUrl = server?.baseUrl ?? ''): ReturnType<typeof runDsh> =>
  runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--base-url', baseUrl, ...args], { cwd: tree.root, env: key })
type Line = { type: string; kind?: string; text?: string; turn?: number; step?: number; attempt?: number; data?: { turn?: number; step?: number; attempt?: number; discarded?: boolean; message?: { content: { type: string; text?: string }[] } } }
// oxlint-disable-next-line typescript/no-unsafe-type-assertion -- lines dsh wrote, in the shape the test reads
const parseLine = (line: string): Line => JSON.parse(line) as Line
const events = (id: string): Line[] => readFileSync(tree.path(`home/sessions/${id}.jsonl`), 'utf8').trim().split('\n').map(parseLine)
const lines = (stderr: string): string[] => stderr.trim().split('\n').filter((line) => !line.startsWith('session: '))

describe('DeepSeek faults through dsh', { timeout: 120_000 }, () => {
  it('a reset after reasoning started is retried: the log holds one answer, text output shows it once, stream-json marks the void pieces', async () => {
    tree = await tempTree({ 'repo/': null })
    const answer: DeepSeekAnswer = { reasoning: 'Thinking about the greeting at length.', text: 'Hello there!' }
    server = await startDeepSeekServer({ answers: [{ ...answer, fault: 'reset' }, answer, { ...answer, fault: 'reset' }, answer] })
    const text = await run(['hi'])
    expect(text).toMatchObject({ code: 0, stdout: 'Hello there!\n' })
    expect(text.stderr).toMatch(/warning: deepseek: MODEL_NETWORK \(.*\) after output had started; retrying: attempt 2 of 5 in \d+ ms, the partial answer is discarded\n/)
    const log = events(sessionIdOf(text.stderr))
    expect(log.filter((event) => event.type === 'assistant/message')).toHaveLength(1)
    expect(log.find((event) => event.type === 'model/retry')?.data).toMatchObject({ attempt: 2, discarded: true })
    const streamed = await run(['--output-format', 'stream-json', '--include-partial', 'hi again'])
    expect(streamed.code).toBe(0)
    const out = streamed.stdout.trim().split('\n').map(parseLine)
    const retryAt = out.findIndex((line) => line.type === 'model/retry')
    expect(out[retryAt]?.data?.discarded).toBe(true)
    // The pieces after the retry line are the whole answer; the committed message carries it once.
    expect(out.slice(retryAt).filter((line) => line.type === 'stream/delta' && line.kind === 'text').map((line) => line.text).join('')).toBe('Hello there!')
    // Each piece names its attempt: dropping those a discarding retry of the same step voids leaves one answer.
    const retry = out[retryAt]?.data
    const deltas = out.filter((line) => line.type === 'stream/delta')
    const isVoid = (line: Line): boolean => line.turn === retry?.turn && line.step === retry?.step && (line.attempt ?? 0) < (retry?.attempt ?? 0)
    expect(deltas.filter(isVoid).map((line) => `${line.kind}:${line.attempt}`)).toContain('reasoning:1')
    expect(deltas.filter((line) => !isVoid(line) && line.kind === 'reasoning').map((line) => line.text).join('')).toBe('Thinking about the greeting at length.')
    expect(deltas.filter((line) => !isVoid(line) && line.kind === 'text').map((line) => line.text).join('')).toBe('Hello there!')
    expect(deltas.filter((line) => !isVoid(line)).every((line) => line.attempt === 2)).toBe(true)
    const messages = out.filter((line) => line.type === 'assistant/message')
    expect(messages).toHaveLength(1)
    expect(messages[0]?.data?.message?.content.filter((block) => block.type === 'text').map((block) => block.text)).toEqual(['Hello there!'])
    expect(out.at(-1)).toMatchObject({ type: 'result', is_error: false, result: 'Hello there!' })
  })

  it('after the last attempt: one line naming the cause, exit 1', async () => {
    tree = await tempTree({ 'repo/': null })
    writeFileSync(tree.path('dsh.yaml'), 'model:\n  maxRetries: 1\n')
    server = await startDeepSeekServer({ answers: [{ reasoning: 'a long line of thought that never ends', finishReason: 'insufficient_system_resource' }] })
    const cut = await run(['--config', tree.path('dsh.yaml'), 'hi'])
    expect(cut.code).toBe(1)
    expect(lines(cut.stderr).filter((line) => line.startsWith('dsh: '))).toEqual(['dsh: deepseek server error after 1 retry: the server stopped the answer: insufficient_system_resource (DeepSeek is overloaded)'])
  })

  it('F22: an answer with no text and no tool call is a one-line notice on stderr and exit 1', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({ answers: [{ reasoning: 'Nothing to say.', text: '' }] })
    const result = await run(['hi'])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    const id = sessionIdOf(result.stderr)
    expect(lines(result.stderr)).toEqual([`dsh: the model answered with no text and no tool call: nothing to print; run again, or continue the session with --resume ${id}`])
    const json = await run(['--output-format', 'json', 'hi'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({ is_error: true, exit_code: 1, error: { code: 'MODEL_EMPTY_ANSWER' } })
  })

  it('F6: two calls with one id in one answer both run under distinct ids, and the next request is a valid sequence', async () => {
    tree = await tempTree({ 'repo/a.txt': 'alpha\n', 'repo/b.txt': 'beta\n' })
    const calls = [{ name: 'read', arguments: '{"file_path":"a.txt"}' }, { name: 'read', arguments: '{"file_path":"b.txt"}' }]
    server = await startDeepSeekServer({ answers: [{ reasoning: 'Read both.', toolCalls: calls, duplicateCallIds: true }, { reasoning: 'Done.', text: 'alpha and beta' }] })
    const result = await run(['read both'])
    expect(result).toMatchObject({ code: 0, stdout: 'alpha and beta\n' })
    expect(server.records.map((record) => record.status)).toEqual([200, 200])
    type Wire = { role: string; content: string; tool_call_id?: string; tool_calls?: { id: string }[] }
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- a body dsh sent, in the chat-completions shape
    const messages = (server.records[1]?.body?.messages ?? []) as Wire[]
    const ids = messages.find((message) => message.role === 'assistant')?.tool_calls?.map((call) => call.id) ?? []
    expect(ids).toHaveLength(2)
    expect(ids[1]).toBe(`${ids[0] ?? ''}_2`)
    const results = messages.filter((message) => message.role === 'tool')
    expect(results.map((message) => message.tool_call_id)).toEqual(ids)
    expect(results.map((message) => message.content)).toEqual([expect.stringContaining('alpha'), expect.stringContaining('beta')])
  })

  it('a context-length 400 compacts once and retries; a prompt too big alone is one clear error', async () => {
    tree = await tempTree({ 'repo/': null })
    const roomy = await startDeepSeekServer({ answers: [{ text: 'Noted the long text.' }] })
    const first = await run(['--no-thinking', `remember this: ${'lorem ipsum '.repeat(3000)}`], roomy.baseUrl)
    expect(first.code).toBe(0)
    const id = sessionIdOf(first.stderr)
    const promptTokens = roomy.records[0]?.cache?.promptTokens ?? 0
    await roomy.close()
    // Room for the first request's prompt and 8K of completion, not for the whole first turn again.
    server = await startDeepSeekServer({ answers: [{ text: 'Short answer.' }], contextWindow: promptTokens + 8192 + 2 })
    const second = await run(['--no-thinking', '--resume', id, 'and now?'])
    expect(second).toMatchObject({ code: 0, stdout: 'Short answer.\n' })
    expect(second.stderr).toContain('automatic compaction: the model refused the request as longer than its context; compacted, retrying once')
    expect(server.records.filter((record) => record.error?.message.startsWith("This model's maximum context length")).length).toBeGreaterThanOrEqual(1)
    expect(server.records.at(-1)?.status).toBe(200)
    await server.close()
    server = await startDeepSeekServer({ answers: [{ text: 'never' }], contextWindow: 8192 + 500 })
    const huge = await run(['--no-thinking', `x ${'word '.repeat(4000)}`])
    expect(huge.code).toBe(1)
    expect(lines(huge.stderr).at(-1)).toMatch(/^dsh: deepseek rejected the request \(HTTP 400\): This model's maximum context length is 8692 tokens\..* \(nothing earlier in the session could be compacted: shorten the prompt, or start a new session\)$/)
  })

  it('F9 in ACP: headers then silence answers the prompt with an error naming the idle limit, not silence', async () => {
    tree = await tempTree({ 'repo/': null })
    writeFileSync(tree.path('dsh.yaml'), 'model:\n  idleTimeoutMs: 300\n')
    server = await startDeepSeekServer({ answers: [{ fault: 'headers-then-silence' }] })
    acp = spawnAcp(['--dsh-home', tree.path('home'), '--base-url', server.baseUrl, '--config', tree.path('dsh.yaml')], { cwd: tree.path('repo'), home: tree.root, env: key })
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('repo'), mcpServers: [] })
    const failed = await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] }).catch((error: unknown) => error)
    expect(failed).toMatchObject({ message: expect.stringContaining('the server sent the response headers and then nothing for 300 ms (model.idleTimeoutMs)') })
  })

  it('ACP: a reset after output started is retried; the editor is told the partial answer is void, then gets the whole answer', async () => {
    tree = await tempTree({ 'repo/': null })
    const answer: DeepSeekAnswer = { reasoning: 'Thinking about the greeting at length.', text: 'Hello there!' }
    server = await startDeepSeekServer({ answers: [{ ...answer, fault: 'reset' }, answer] })
    acp = spawnAcp(['--dsh-home', tree.path('home'), '--base-url', server.baseUrl], { cwd: tree.path('repo'), home: tree.root, env: key })
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('repo'), mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({ stopReason: 'end_turn' })
    const texts = acp.updates.flatMap((note) => (note.update.sessionUpdate === 'agent_message_chunk' && note.update.content.type === 'text' ? [note.update.content.text] : []))
    const voidAt = texts.findIndex((text) => text.includes('the partial answer above is discarded]'))
    expect(voidAt).toBeGreaterThanOrEqual(0)
    expect(texts.slice(voidAt + 1).join('')).toBe('Hello there!')
    // The void line closes the failed attempt's message; the retried attempt streams as new messages.
    const updates = acp.updates
    const ids = (kind: string): (string | null | undefined)[] => updates.flatMap((note) => (note.update.sessionUpdate === kind && 'messageId' in note.update ? [note.update.messageId] : []))
    const answerIds = ids('agent_message_chunk')
    expect(answerIds.every((id) => typeof id === 'string' && id !== '')).toBe(true)
    expect(new Set(answerIds.slice(0, voidAt + 1)).size).toBe(1)
    expect(new Set(answerIds.slice(voidAt + 1)).size).toBe(1)
    expect(answerIds[voidAt + 1]).not.toBe(answerIds[voidAt])
    const thoughtIds = ids('agent_thought_chunk')
    expect(new Set(thoughtIds).size).toBe(2)
    expect(thoughtIds).not.toContain(answerIds[0])
  })

  it('a piped chat holds each attempt until it ends: a reset after the answer started leaves no void text in the output', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({ answers: [{ text: 'The partial answer that breaks off here.', fault: 'reset', cutAfterTextPieces: 3 }, { text: 'Hello there!' }] })
    const chat = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--base-url', server.baseUrl], 'hi\n', { cwd: tree.root, env: key })
    expect(chat.code).toBe(0)
    expect(chat.stdout).toMatch(/^\[the answer broke off \([^\n]*\); retrying, attempt 2 of 5\]\nHello there!\n$/)
    expect(chat.stdout).not.toContain('partial')
    expect(server.records).toHaveLength(2)
  })

  it('chat --continue and an ACP prompt on a loaded session keep the endpoint the session ran with', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({ answers: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] })
    const first = await run(['--model', 'deepseek:deepseek-v4-pro', 'start'])
    expect(first.code).toBe(0)
    const id = sessionIdOf(first.stderr)
    const chat = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--continue'], 'go on\n', { cwd: tree.root, env: key })
    expect(chat).toMatchObject({ code: 0, stdout: 'two\n' })
    expect(server.records[1]?.body).toMatchObject({ model: 'deepseek-v4-pro' })
    acp = spawnAcp(['--dsh-home', tree.path('home')], { cwd: tree.path('repo'), home: tree.root, env: key })
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    await acp.agent.request('session/load', { sessionId: id, cwd: tree.path('repo'), mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId: id, prompt: [{ type: 'text', text: 'and more' }] })).toEqual({ stopReason: 'end_turn' })
    expect(server.records[2]?.body).toMatchObject({ model: 'deepseek-v4-pro' })
    expect(acp.stderr()).not.toContain('note:')
  })

  it('/resume ID in a chat started with the defaults continues with the endpoint the session ran with', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({ answers: [{ text: 'one' }, { text: 'two' }] })
    const first = await run(['--model', 'deepseek:deepseek-v4-pro', 'start'])
    const id = sessionIdOf(first.stderr)
    // No --base-url: a new session would go to api.deepseek.com; the resumed one goes where it ran.
    const chat = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo')], `/resume ${id}\ngo on\n`, { cwd: tree.root, env: key })
    expect(chat.code).toBe(0)
    expect(chat.stdout).toContain('two\n')
    expect(server.records[1]?.body).toMatchObject({ model: 'deepseek-v4-pro' })
  })
})
