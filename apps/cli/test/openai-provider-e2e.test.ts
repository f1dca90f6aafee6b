// The real OpenAI-compatible provider through the built binary, against a loopback SSE server.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { finish, reasoning, startSseServer, tempTree, text, toolPiece, usage, type SseServer, type TempTree } from '@dsh/testkit'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, runDsh, sessionIdOf } from './run-dsh.ts'

let tree: TempTree
let server: SseServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  await tree?.dispose()
})

describe('dsh run with an OpenAI-compatible endpoint', () => {
  it('streams DeepSeek reasoning apart from the answer, runs the tool call and sends its result (and the reasoning) back', async () => {
    tree = await tempTree({ 'repo/notes.txt': 'alpha\n' })
    server = await startSseServer([
      { kind: 'sse', chunks: [reasoning('I should read the file.'), toolPiece(0, { id: 'call_1', name: 'read' }), toolPiece(0, { args: '{"file_path":' }), toolPiece(0, { args: '"notes.txt"}' }), finish('tool_calls'), usage({ prompt_tokens: 10, completion_tokens: 5, prompt_cache_hit_tokens: 4 })] },
      { kind: 'sse', chunks: [text('The notes say '), text('alpha.'), finish(), usage({ prompt_tokens: 20, completion_tokens: 4 })] },
    ])
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', 'deepseek:deepseek-v4-flash', '--base-url', server.baseUrl, 'what do the notes say?'], {
      cwd: tree.root,
      env: { DEEPSEEK_API_KEY: 'sk-test-key' },
    })
    expect(result).toMatchObject({ code: 0, stdout: 'The notes say alpha.\n' })
    expect(server.requests).toHaveLength(2)
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test-key')
    expect(server.requests[0]?.body).toMatchObject({ model: 'deepseek-v4-flash', stream: true })
    const second = JSON.stringify(server.requests[1]?.body)
    expect(server.requests[1]?.body).toMatchObject({ messages: expect.arrayContaining([expect.objectContaining({ role: 'tool', tool_call_id: 'call_1', content: expect.stringContaining('alpha') })]) })
    // DeepSeek thinking mode: the reasoning of a tool-calling stretch goes back in later requests.
    expect(server.requests[1]?.body).toMatchObject({ messages: expect.arrayContaining([expect.objectContaining({ role: 'assistant', reasoning_content: 'I should read the file.' })]) })
    expect(second.match(/I should read the file\./g)).toHaveLength(1)
    const log = readFileSync(tree.path(`home/sessions/${sessionIdOf(result.stderr)}.jsonl`), 'utf8')
    const assistant = log.split('\n').filter((line) => line.includes('"assistant/message"')).map((line): unknown => JSON.parse(line))
    expect(assistant[0]).toMatchObject({
      data: { usage: { inputTokens: 10, outputTokens: 5, cacheHitTokens: 4 }, message: { content: [{ type: 'reasoning', text: 'I should read the file.' }, { type: 'tool-call', callId: 'call_1' }] } },
    })
  })

  it('a server that keeps failing ends with one clear error line and exit code 1', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startSseServer([{ kind: 'json', status: 401, body: { error: { message: 'bad key' } } }])
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', 'openai:local-model', '--base-url', server.baseUrl, 'hi'], {
      cwd: tree.root,
      env: { OPENAI_API_KEY: 'wrong' },
    })
    expect(result.code).toBe(1)
    const lines = result.stderr.trim().split('\n').filter((line) => !line.startsWith('session: '))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^dsh: .*bad key.*OPENAI_API_KEY/)
  })

  it('model.apiKeyEnv: the key comes from the named variable, never from OPENAI_API_KEY', async () => {
    tree = await tempTree({ 'repo/': null, 'dsh.yaml': 'model:\n  apiKeyEnv: MY_PROXY_KEY\n' })
    server = await startSseServer([{ kind: 'sse', chunks: [text('proxied'), finish()] }])
    const args = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--config', tree.path('dsh.yaml'), '--model', 'openai:proxy-model', '--base-url', server.baseUrl, 'hi']
    const result = await runDsh(args, { cwd: tree.root, env: { OPENAI_API_KEY: 'sk-default', MY_PROXY_KEY: 'sk-proxy' } })
    expect(result).toMatchObject({ code: 0, stdout: 'proxied\n' })
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-proxy')
  })

  it('model.apiKeyEnv naming an unset variable fails with one line before any request, even with OPENAI_API_KEY set and a loopback URL', async () => {
    tree = await tempTree({ 'repo/': null, 'dsh.yaml': 'model:\n  apiKeyEnv: MY_PROXY_KEY\n' })
    server = await startSseServer([{ kind: 'sse', chunks: [text('must not be asked'), finish()] }])
    const args = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--config', tree.path('dsh.yaml'), '--model', 'openai:proxy-model', '--base-url', server.baseUrl, 'hi']
    const result = await runDsh(args, { cwd: tree.root, env: { OPENAI_API_KEY: 'sk-default' } })
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: `dsh: MY_PROXY_KEY (model.apiKeyEnv) is not set: export it (needed for ${server.baseUrl})\n` })
    expect(server.requests).toHaveLength(0)
  })

  it('dsh chat /compact asks the model for the summary and --request-log records that call too', async () => {
    tree = await tempTree({ 'repo/': null })
    server = await startSseServer([
      { kind: 'sse', chunks: [text('first answer'), finish()] },
      { kind: 'sse', chunks: [text('second answer'), finish()] },
      { kind: 'sse', chunks: [text('The user asked twice.'), finish()] },
    ])
    const log = tree.path('requests.jsonl')
    const args = ['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', 'openai:local-model', '--base-url', server.baseUrl, '--request-log', log]
    const result = await runDshPiped(args, 'one\ntwo\n/compact\n', { cwd: tree.root })
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('compacted: ')
    const requests = readRequests(log)
    expect(requests).toHaveLength(3)
    expect(requests[2]?.messages[0]?.content).toMatch(/^You write checkpoint summaries/)
    expect(server.requests).toHaveLength(3)
  })
})

describe('dsh run against an unresponsive model server', () => {
  it('gives up after the configured connect timeout per attempt, announcing each retry as one warning line', async () => {
    tree = await tempTree({ 'repo/': null, 'dsh.yaml': 'model:\n  connectTimeoutMs: 200\n  maxRetries: 2\n' })
    server = await startSseServer([{ kind: 'silent' }])
    const args = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--config', tree.path('dsh.yaml'), '--model', 'openai:local-model', '--base-url', server.baseUrl, 'hi']
    const result = await runDsh(args, { cwd: tree.root })
    expect(result.code).toBe(1)
    const lines = result.stderr.trimEnd().split('\n').filter((line) => !line.startsWith('session: '))
    expect(lines).toEqual([
      expect.stringMatching(/^warning: openai: MODEL_NETWORK \(no response from the server within 200 ms \(connectTimeoutMs\)\); attempt 2 of 3 in \d+ ms$/),
      expect.stringMatching(/^warning: openai: MODEL_NETWORK \(no response from the server within 200 ms \(connectTimeoutMs\)\); attempt 3 of 3 in \d+ ms$/),
      `dsh: cannot reach ${server.baseUrl} after 2 retries: no response from the server within 200 ms (connectTimeoutMs)`,
    ])
    // The lines above are the attempts. The server may have seen fewer: on a loaded machine an
    // attempt's 200 ms can run out before the loopback server accepted its request; never more.
    expect(server.requests.length).toBeLessThanOrEqual(3)
  })

  it('an old config naming model.timeoutMs still works: read as connectTimeoutMs, with one warning line; --add-dir does not repeat it', async () => {
    tree = await tempTree({ 'repo/': null, 'extra/': null, 'dsh.yaml': 'model:\n  timeoutMs: 200\n  maxRetries: 0\n' })
    server = await startSseServer([{ kind: 'silent' }])
    const args = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--add-dir', tree.path('extra'), '--config', tree.path('dsh.yaml'), '--model', 'openai:local-model', '--base-url', server.baseUrl, 'hi']
    const result = await runDsh(args, { cwd: tree.root })
    expect(result.code).toBe(1)
    expect(result.stderr.trimEnd().split('\n').filter((line) => !line.startsWith('session: '))).toEqual([
      `warning: ${tree.path('dsh.yaml')}: model.timeoutMs is deprecated; reading it as model.connectTimeoutMs (rename it)`,
      `dsh: cannot reach ${server.baseUrl}: no response from the server within 200 ms (connectTimeoutMs)`,
    ])
    // The lines above are the attempts. The server may have seen fewer: on a loaded machine an
    // attempt's 200 ms can run out before the loopback server accepted its request; never more.
    expect(server.requests.length).toBeLessThanOrEqual(1)
  })

  it('a port Node refuses fails at once, without retries', async () => {
    tree = await tempTree({ 'repo/': null })
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', 'openai:local-model', '--base-url', 'http://127.0.0.1:6000/v1', 'hi'], { cwd: tree.root })
    expect(result.code).toBe(1)
    expect(result.stderr.trimEnd().split('\n').filter((line) => !line.startsWith('session: '))).toEqual([
      'dsh: cannot reach http://127.0.0.1:6000/v1: Node refuses to connect to this port ("bad port": it is on the fetch block list, like 6000 or 6667); serve the model on another port',
    ])
  })
})
