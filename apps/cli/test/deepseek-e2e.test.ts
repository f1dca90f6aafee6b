// dsh against the testkit's DeepSeek imitation, through the built binary: the default model
// answers on the first try, thinking-mode sessions with tools never meet the reasoning 400 across
// turns, resumes and replays, the thinking flags reach the body, and model names are explained.
import { readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { startDeepSeekServer, tempTree, type DeepSeekAnswer, type DeepSeekServer, type TempTree } from '@dsh/testkit'
import { runDsh, sessionIdOf } from './run-dsh.ts'

let tree: TempTree
let server: DeepSeekServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  await tree?.dispose()
})

const key = { DEEPSEEK_API_KEY: 'sk-test-key-1234' }
const run = (args: readonly string[]): ReturnType<typeof runDsh> => runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--base-url', server?.baseUrl ?? '', ...args], { cwd: tree.root, env: key })

/** Stderr without the session line. */
const lines = (stderr: string): string[] => stderr.trim().split('\n').filter((line) => !line.startsWith('session: '))

type Assistant = { role: string; content: string | null; reasoning_content?: string; tool_calls?: { id: string; function: { arguments: string } }[] }
// oxlint-disable-next-line typescript/no-unsafe-type-assertion -- a body dsh sent, in the chat-completions shape
const assistantsOf = (body: unknown): Assistant[] => ((body as { messages?: Assistant[] }).messages ?? []).filter((message) => message.role === 'assistant')

// Several runs of the binary per test: generous limits for a loaded machine (nothing here measures time).
describe('dsh with DeepSeek as it is today', { timeout: 120_000 }, () => {
  it('the default model answers "hi" with only DEEPSEEK_API_KEY set', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({ answers: [{ reasoning: 'A greeting.', text: 'Hello!' }], apiKey: key.DEEPSEEK_API_KEY })
    const result = await run(['hi'])
    expect(result).toMatchObject({ code: 0, stdout: 'Hello!\n' })
    expect(server.records[0]?.body).toMatchObject({ model: 'deepseek-v4-flash', stream: true })
    expect(server.records[0]?.body).not.toHaveProperty('thinking')
  })

  it('a thinking-mode session with tools: no request refused across turns and a resume; every reasoning and argument replayed exactly', async () => {
    tree = await tempTree({ 'repo/notes.txt': 'alpha\n' })
    const args = '{ "file_path" :"notes.txt"}'
    const answers: DeepSeekAnswer[] = [
      // Turn 1: a tool step, then an answer.
      { reasoning: 'I should read the notes.', text: 'Let me check.', toolCalls: [{ name: 'read', arguments: args }] },
      { reasoning: 'They say alpha.', text: 'The notes say alpha.' },
      // Turn 2 (a resume): an answer without any tool call.
      { reasoning: 'Just answer.', text: 'Yes, alpha.' },
      // Turn 3: a tool step again.
      { reasoning: 'Read once more.  ', toolCalls: [{ name: 'read', arguments: args }] },
      { reasoning: '', text: 'Still alpha.' },
    ]
    server = await startDeepSeekServer({ answers, reasoningRule: 'strict' })
    const first = await run(['what do the notes say?'])
    expect(first).toMatchObject({ code: 0, stdout: 'The notes say alpha.\n' })
    const id = sessionIdOf(first.stderr)
    expect((await run(['--resume', id, 'sure?'])).code).toBe(0)
    expect(await run(['--resume', id, 'check again'])).toMatchObject({ code: 0, stdout: 'Still alpha.\n' })
    expect(server.records.map((record) => record.status)).toEqual([200, 200, 200, 200, 200])
    // The session's totals: every call's input with its cache hits, output and reasoning, and the cost at model.prices.
    const hits = server.records.reduce((sum, record) => sum + (record.cache?.hitTokens ?? 0), 0)
    const input = server.records.reduce((sum, record) => sum + (record.cache?.promptTokens ?? 0), 0)
    writeFileSync(tree.path('prices.yaml'), 'model:\n  prices:\n    inputPerMillion: 0.15\n    cacheHitPerMillion: 0.003\n    outputPerMillion: 0.6\n')
    const shown = await runDsh(['--dsh-home', tree.path('home'), 'sessions', 'show', id, '--config', tree.path('prices.yaml')], { cwd: tree.root })
    expect(shown.stdout).toContain(`usage 5 model calls: input ${input} tokens (cache hits ${hits}, ${((100 * hits) / input).toFixed(1)}%), output `)
    expect(shown.stdout).toMatch(/\(reasoning [1-9]\d*\)\ncost \$0\.\d{4} \(at model\.prices\)\n/)
    const last = assistantsOf(server.records[4]?.body)
    expect(last.map((message) => message.reasoning_content)).toEqual(['I should read the notes.', 'They say alpha.', 'Just answer.', 'Read once more.  '])
    expect(last[0]?.tool_calls?.[0]?.function.arguments).toBe(args)
    // The call id as the server streamed it.
    expect(last[0]?.tool_calls?.[0]?.id).toMatch(/^call_00_[A-Za-z0-9]{24}$/)
    // Every request replays the previous request and its answer byte for byte.
    for (let index = 1; index < server.records.length; index++) {
      const previous = server.records[index - 1]?.promptWithAnswer ?? '-'
      expect(server.records[index]?.prompt?.startsWith(previous)).toBe(true)
    }
  })

  it('an older session whose assistant messages have no reasoning resumes: they carry ""', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({ answers: [{ text: 'first' }, { text: 'second' }] })
    // Thinking disabled: the stored answer has no reasoning at all, as an older dsh stored it.
    const first = await run(['--no-thinking', 'one'])
    expect(first.code).toBe(0)
    expect(server.records[0]?.body).toMatchObject({ thinking: { type: 'disabled' } })
    const second = await run(['--resume', sessionIdOf(first.stderr), 'two'])
    expect(second).toMatchObject({ code: 0, stdout: 'second\n' })
    expect(assistantsOf(server.records[1]?.body).map((message) => message.reasoning_content)).toEqual([''])
  })

  it('--thinking and --effort reach the body as thinking {type} and reasoning_effort; a bad effort is a usage error', async () => {
    tree = await tempTree({ 'repo/': null, 'dsh.yaml': 'model:\n  thinking: disabled\n  reasoningEffort: low\n' })
    server = await startDeepSeekServer({ answers: [{ text: 'ok' }] })
    expect((await run(['--config', tree.path('dsh.yaml'), 'a'])).code).toBe(0)
    expect(server.records[0]?.body).toMatchObject({ thinking: { type: 'disabled' }, reasoning_effort: 'low' })
    expect((await run(['--config', tree.path('dsh.yaml'), '--thinking', '--effort', 'max', 'b'])).code).toBe(0)
    expect(server.records[1]?.body).toMatchObject({ thinking: { type: 'enabled' }, reasoning_effort: 'max' })
    expect(server.records[1]?.body).not.toHaveProperty('tool_choice')
    const bad = await run(['--effort', 'medium', 'c'])
    expect(bad).toMatchObject({ code: 2, stderr: 'dsh: --effort "medium": expected low, high or max\n' })
  })

  it('the openai provider never sends reasoning_content, thinking or reasoning_effort', async () => {
    tree = await tempTree({ 'repo/notes.txt': 'alpha\n' })
    server = await startDeepSeekServer({ answers: [{ reasoning: 'r', toolCalls: [{ name: 'read', arguments: '{"file_path":"notes.txt"}' }] }, { text: 'done' }], servedModels: ['local'], reasoningRule: 'lenient' })
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', 'openai:local', '--base-url', `${server.baseUrl}/v1`, '--effort', 'max', '--thinking', 'go'], { cwd: tree.root, env: { OPENAI_API_KEY: 'sk' } })
    expect(result).toMatchObject({ code: 0, stdout: 'done\n' })
    const second = JSON.stringify(server.records[1]?.body)
    expect(second).not.toContain('reasoning_content')
    expect(second).not.toContain('"thinking"')
    expect(second).not.toContain('reasoning_effort')
  })

  it('an unknown model: one line naming the models the endpoint serves and how to pick one, exit 1', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({ answers: [{ text: 'never' }] })
    const result = await run(['--model', 'deepseek:deepseek-v5', 'hi'])
    expect(result.code).toBe(1)
    expect(lines(result.stderr)).toEqual([
      'dsh: deepseek rejected the request (HTTP 400): Model Not Exist; the endpoint serves deepseek-flash, deepseek-v4-pro; pick one with --model deepseek:NAME or model.spec in the config file',
    ])
  })

  it('a retired name gets a warning naming the replacement, and the request goes out as written', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({ answers: [{ text: 'never' }] })
    const result = await run(['--model', 'deepseek:deepseek-chat', 'hi'])
    expect(result.stderr).toContain(
      'warning: deepseek-chat was retired by DeepSeek on 2026-07-24; use --model deepseek:deepseek-v4-flash (model.spec) with model.thinking: disabled instead (the request is sent as written)\n',
    )
    expect(server.records[0]?.body).toMatchObject({ model: 'deepseek-chat' })
    expect(result.code).toBe(1)
  })

  it('dsh models lists what the endpoint serves', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({ answers: [{ text: 'never' }] })
    const result = await runDsh(['models', '--base-url', server.baseUrl], { cwd: tree.root, env: key })
    expect(result).toEqual({ code: 0, stdout: 'deepseek-flash\ndeepseek-v4-pro\n', stderr: 'use one with --model deepseek:NAME or model.spec in the config file\n' })
  })

  it('--resume keeps the model and base URL the session ran with, and says so when the flags choose others', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({ answers: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] })
    const base = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo')]
    const first = await runDsh([...base, '--model', 'deepseek:deepseek-v4-pro', '--base-url', server.baseUrl, 'one'], { cwd: tree.root, env: key })
    const id = sessionIdOf(first.stderr)
    // No --model, no --base-url: the stored endpoint, silently.
    const second = await runDsh([...base, '--resume', id, 'two'], { cwd: tree.root, env: key })
    expect(second).toMatchObject({ code: 0, stdout: 'two\n' })
    expect(second.stderr).not.toContain('note:')
    expect(server.records[1]?.body).toMatchObject({ model: 'deepseek-v4-pro' })
    const third = await runDsh([...base, '--resume', id, '--model', 'deepseek:deepseek-flash', 'three'], { cwd: tree.root, env: key })
    expect(third.code).toBe(0)
    expect(third.stderr).toContain(`note: session ${id} ran with deepseek:deepseek-v4-pro at ${server.baseUrl}; this run uses deepseek:deepseek-flash at ${server.baseUrl} (--model, --base-url or the config file)\n`)
    expect(server.records[2]?.body).toMatchObject({ model: 'deepseek-flash' })
    const log = readFileSync(tree.path(`home/sessions/${id}.jsonl`), 'utf8')
    expect(log).toContain(`"baseUrl":"${server.baseUrl}"`)
    expect(log).not.toContain(key.DEEPSEEK_API_KEY)
  })

  it('DeepSeek faults: 402 and 401 one line each and not retried, 429 retried, insufficient_system_resource never a silent success, a cut answer warned about', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startDeepSeekServer({ answers: [{ status: 402 }] })
    const poor = await run(['hi'])
    expect(poor.code).toBe(1)
    expect(lines(poor.stderr)).toEqual(['dsh: deepseek refused the request (HTTP 402): Insufficient Balance; top up the account balance (for DeepSeek: https://platform.deepseek.com/top_up), then run again'])
    expect(server.records).toHaveLength(1)
    await server.close()
    server = await startDeepSeekServer({ answers: [{ text: 'never' }], apiKey: 'sk-other' })
    const badKey = await run(['hi'])
    expect(badKey.code).toBe(1)
    expect(lines(badKey.stderr)).toHaveLength(1)
    expect(lines(badKey.stderr)[0]).toMatch(/^dsh: deepseek rejected the API key \(HTTP 401\): Authentication Fails, Your api key: \*\*\*\*1234 is invalid; check DEEPSEEK_API_KEY/)
    await server.close()
    server = await startDeepSeekServer({ answers: [{ status: 429 }, { text: 'after the wait' }] })
    expect(await run(['hi'])).toMatchObject({ code: 0, stdout: 'after the wait\n' })
    await server.close()
    // Without thinking nothing was shown before the server gave up: retried like a 5xx.
    server = await startDeepSeekServer({ answers: [{ text: 'lost', finishReason: 'insufficient_system_resource' }, { text: 'second try' }] })
    const retried = await run(['--no-thinking', 'hi'])
    expect(retried).toMatchObject({ code: 0, stdout: 'second try\n' })
    expect(retried.stderr).toContain('insufficient_system_resource')
    await server.close()
    // In thinking mode reasoning had streamed: retried too, the partial answer discarded; the answer once.
    server = await startDeepSeekServer({ answers: [{ reasoning: 'a long line of thought that never ends', finishReason: 'insufficient_system_resource' }, { text: 'whole' }] })
    const cut = await run(['hi'])
    expect(cut).toMatchObject({ code: 0, stdout: 'whole\n' })
    expect(cut.stderr).toContain('the partial answer is discarded')
    await server.close()
    server = await startDeepSeekServer({ answers: [{ text: 'half an ans', finishReason: 'length' }] })
    const short = await run(['hi'])
    expect(short).toMatchObject({ code: 0, stdout: 'half an ans\n' })
    expect(short.stderr).toContain('warning: deepseek: the answer was cut off at the output limit (finish_reason length); it may be incomplete\n')
  })
})
