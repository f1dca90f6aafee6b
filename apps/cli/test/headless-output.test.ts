// dsh run --output-format json|stream-json end to end through the built binary: every stdout line
// validated against the shipped schema, success and every kind of failure, the stream read while
// it is written, multi-turn input on stdin, partial deltas, and --help naming the schema.
import { afterEach, describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { finish, startSseServer, tempTree, text, type SseServer, type TempTree } from '@dsh/testkit'
import { readRequests, runDsh, writeScript } from './run-dsh.ts'
import { checkedLines, spawnLive, type Line } from './stream-json-check.ts'

let tree: TempTree
let server: SseServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  await tree?.dispose()
})

async function workspace() {
  tree = await tempTree({ 'repo/notes.txt': 'alpha\nbeta\n', 'repo/AGENTS.md': 'Answer in one line.\n', 'scripts/': null })
  return { repo: tree.path('repo'), home: tree.path('home') }
}

const run = (w: { repo: string; home: string }, script: string, ...rest: string[]) => runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, ...rest], { cwd: tree.root })

const result = (lines: readonly Line[]): Line => {
  const last = lines.at(-1)
  if (last?.type !== 'result') throw new Error(`the last line is not a result: ${JSON.stringify(last)}`)
  return last
}

describe('dsh run --output-format stream-json', { timeout: 120_000 }, () => {
  it('writes system/init, the session log events as they are committed, and one result; every line fits the schema', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'read.json', { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'alpha and beta' }] })
    const done = await run(w, script, '--output-format', 'stream-json', 'what is in notes.txt?')
    expect(done.code).toBe(0)
    const lines = checkedLines(done.stdout)
    const init = lines[0]
    expect(init).toMatchObject({ type: 'system/init', cwd: w.repo, model: 'scripted', mcp_servers: [], roots: [{ path: w.repo, state: 'primary' }], permission_mode: 'full-auto', schema_version: 1 })
    expect(init?.['tools']).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'bash']))
    const id = init?.['session_id']
    expect(lines.every((line) => line['session_id'] === id)).toBe(true)
    const types = lines.map((line) => line.type)
    for (const type of ['turn/start', 'user/message', 'assistant/message', 'tool/call', 'tool/permission', 'tool/result', 'step/end', 'turn/end']) expect(types).toContain(type)
    expect(types.filter((type) => type === 'result')).toHaveLength(1)
    // The event lines are the session log's, in log order: seqs strictly increase.
    const seqs = lines.flatMap((line) => (typeof line['seq'] === 'number' ? [line['seq']] : []))
    expect(seqs).toEqual(seqs.toSorted((a, b) => a - b))
    // The instruction-file delivery is a user/message whose source says so.
    const delivered = lines.find((line) => line.type === 'user/message' && JSON.stringify(line['data']).includes('"kind":"workspace-instructions"'))
    expect(JSON.stringify(delivered?.['data'])).toContain('AGENTS.md')
    expect(result(lines)).toMatchObject({ session_id: id, is_error: false, result: 'alpha and beta', stop_reason: 'completed', subtype: 'success', num_steps: 2, num_turns: 2, exit_code: 0, permission_denials: [] })
    expect(types).not.toContain('stream/delta')
  })

  it('--include-partial adds stream/delta lines with the answer text', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'hi.json', { responses: [{ text: 'hello there' }] })
    const lines = checkedLines((await run(w, script, '--output-format', 'stream-json', '--include-partial', 'hi')).stdout)
    const deltas = lines.filter((line) => line.type === 'stream/delta')
    expect(deltas.map((line) => line['text']).join('')).toBe('hello there')
  })

  it('a denied call is a tool/permission line and a permission_denials entry', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'push.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'git push origin main' } }] }, { text: 'could not push' }] })
    const lines = checkedLines((await run(w, script, '--output-format', 'stream-json', '--deny', 'bash(git push*)', 'push it')).stdout)
    expect(lines.find((line) => line.type === 'tool/permission')?.['data']).toMatchObject({ decision: 'deny', by: 'rule', rule: 'bash(git push*)' })
    expect(result(lines)['permission_denials']).toEqual([{ tool_name: 'bash', tool_use_id: 'call_t1s1_1', by: 'rule', reason: 'bash(git push*)' }])
  })

  it('the step limit ends with a MAX_STEPS result and exit 1', async () => {
    const w = await workspace()
    const loop = writeScript(tree.path('scripts'), 'loop.json', { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'never reached' }] })
    const limited = await run(w, loop, '--output-format', 'stream-json', '--max-steps', '1', 'read')
    expect(limited.code).toBe(1)
    expect(result(checkedLines(limited.stdout))).toMatchObject({ is_error: true, stop_reason: 'max-steps', subtype: 'error_max_turns', num_steps: 1, exit_code: 1, error: { code: 'MAX_STEPS' } })
  })

  it('a bad config file ends with one USAGE result without a session, and exit 2', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'hi.json', { responses: [{ text: 'never' }] })
    writeFileSync(tree.path('bad.yaml'), 'model:\n  nope: 1\n')
    const bad = await run(w, script, '--output-format', 'json', '--config', tree.path('bad.yaml'), 'hi')
    expect(bad.code).toBe(2)
    const badLines = checkedLines(bad.stdout)
    expect(badLines).toHaveLength(1)
    expect(badLines[0]).toMatchObject({ type: 'result', session_id: null, is_error: true, stop_reason: 'error', exit_code: 2, error: { code: 'USAGE', message: expect.stringContaining('model.nope: unknown key') } })
  })

  it('a model error after the retries ends with a model/retry line and a MODEL_SERVER result, exit 1', async () => {
    const w = await workspace()
    server = await startSseServer([{ kind: 'json', status: 503, body: { error: { message: 'overloaded', type: 'server_error', code: null } }, headers: { 'retry-after': '0' } }])
    writeFileSync(tree.path('retry.yaml'), 'model:\n  maxRetries: 1\n')
    const failed = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--config', tree.path('retry.yaml'), '--model', 'openai:m', '--base-url', server.baseUrl, '--output-format', 'stream-json', 'hi'], { cwd: tree.root, env: { OPENAI_API_KEY: 'sk-test' } })
    expect(failed.code).toBe(1)
    const failedLines = checkedLines(failed.stdout)
    expect(failedLines.find((line) => line.type === 'model/retry')?.['data']).toMatchObject({ turn: 1, step: 1, attempt: 2, maxAttempts: 2, delayMs: 0, code: 'MODEL_SERVER', status: 503 })
    expect(result(failedLines)).toMatchObject({ is_error: true, stop_reason: 'error', subtype: 'error_during_execution', exit_code: 1, error: { code: 'MODEL_SERVER' } })
  })

  it('SIGTERM during a tool call ends with a cancelled result and exit code 143', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'sleep.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'sleep 60' } }] }, { text: 'never' }] })
    const live = spawnLive(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, '--output-format', 'stream-json', 'wait'], { cwd: tree.root })
    live.child.stdin.end()
    for (let line = await live.nextLine(); line.type !== 'tool/permission'; line = await live.nextLine());
    live.child.kill('SIGTERM')
    const ended = await live.exit()
    expect(ended.code).toBe(143)
    expect(result(ended.rest)).toMatchObject({ is_error: true, stop_reason: 'cancelled', exit_code: 143, error: { code: 'CANCELLED' } })
  })

  it('the init line is on stdout before the model answers: the model server holds its answer until the test has read it', async () => {
    const w = await workspace()
    const gate: { open?: () => void } = {}
    const held = new Promise<void>((resolve) => (gate.open = resolve))
    server = await startSseServer([{ kind: 'sse', chunks: [text('answered'), finish()], holdUntil: held }])
    const live = spawnLive(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', 'openai:m', '--base-url', server.baseUrl, '--output-format', 'stream-json', 'hi'], { cwd: tree.root, env: { OPENAI_API_KEY: 'sk-test' } })
    live.child.stdin.end()
    const first = await live.nextLine()
    expect(first.type).toBe('system/init')
    gate.open?.()
    const ended = await live.exit()
    expect(ended.code).toBe(0)
    expect(result(ended.rest)).toMatchObject({ is_error: false, result: 'answered' })
  })
})

describe('dsh run --output-format json', () => {
  it('prints exactly one result object', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'hi.json', { responses: [{ text: 'hello' }] })
    const done = await run(w, script, '--output-format', 'json', 'hi')
    expect(done.code).toBe(0)
    const lines = checkedLines(done.stdout)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ type: 'result', is_error: false, result: 'hello', stop_reason: 'completed', num_steps: 1, usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) } })
  })
})

describe('dsh run --input-format stream-json', { timeout: 120_000 }, () => {
  it('runs one turn per stdin line with a result each; the second turn sees the first', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'two.json', { responses: [{ text: 'first answer' }, { text: 'second answer' }] })
    const input = ['first question', 'second question'].map((content) => JSON.stringify({ type: 'user', message: { role: 'user', content } })).join('\n')
    const done = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, '--input-format', 'stream-json', '--output-format', 'stream-json', '--request-log', tree.path('requests.jsonl')], { cwd: tree.root, input: `${input}\n` })
    expect(done.code).toBe(0)
    const results = checkedLines(done.stdout).filter((line) => line.type === 'result')
    expect(results.map((line) => line['result'])).toEqual(['first answer', 'second answer'])
    expect(checkedLines(done.stdout)[0]?.type).toBe('system/init')
    // The second request carries the first turn (the instruction baseline sits beside the first prompt).
    const second = (readRequests(tree.path('requests.jsonl'))[1]?.messages ?? []).map((m) => m.content)
    expect(second.filter((content) => content === 'first question' || content === 'first answer' || content === 'second question')).toEqual(['first question', 'first answer', 'second question'])
  })

  it("each result's steps, usage and duration are its own turn's: time spent waiting for the next line is in none", async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'two.json', { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'first answer' }, { text: 'second answer' }] })
    const live = spawnLive(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, '--input-format', 'stream-json', '--output-format', 'stream-json'], { cwd: tree.root })
    const send = (content: string): void => void live.child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content } })}\n`)
    const nextResult = async (): Promise<Line> => {
      for (let line = await live.nextLine(); ; line = await live.nextLine()) if (line.type === 'result') return line
    }
    send('first question')
    expect(await nextResult()).toMatchObject({ result: 'first answer', num_steps: 2 })
    // A pause far longer than a scripted turn before the second line: it belongs to no turn.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const sentAt = Date.now()
    send('second question')
    const second = await nextResult()
    const seen = Date.now() - sentAt
    live.child.stdin.end()
    expect(second).toMatchObject({ result: 'second answer', num_steps: 1 })
    // dsh's clock for the turn starts after the line arrived and stops before the result was written.
    expect(second['duration_ms']).toBeLessThanOrEqual(seen)
    expect((await live.exit()).code).toBe(0)
  })

  it('a line that is not a user message is a usage error with a result line', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'one.json', { responses: [{ text: 'x' }] })
    const done = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, '--input-format', 'stream-json', '--output-format', 'stream-json'], { cwd: tree.root, input: '{"type":"nope"}\n' })
    expect(done.code).toBe(2)
    expect(result(checkedLines(done.stdout))).toMatchObject({ is_error: true, exit_code: 2, error: { code: 'USAGE', message: expect.stringContaining('stdin line 1') } })
  })
})

describe('dsh run --help', () => {
  it('names the schema of the stream', async () => {
    const help = await runDsh(['run', '--help'], { cwd: process.cwd() })
    expect(help.stdout).toContain('schemas/stream-json.v1.schema.json')
  })
})
