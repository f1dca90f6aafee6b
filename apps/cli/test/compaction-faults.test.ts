// Faults of automatic compaction (issue 22), through the built binary: a prompt larger than the
// context is not repeated whole in the checkpoint (F7: a bounded head and tail, and a note saying
// so), and a model server that cannot be reached during automatic compaction costs one retry
// budget, not two (F8: the summary call's failure ends the step instead of a second full budget).
import { afterEach, describe, expect, it } from 'vitest'
import { finish, startSseServer, tempTree, text, type SseServer, type TempTree } from '@dsh/testkit'
import { readRequests, runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
let server: SseServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  await tree?.dispose()
})

const BIG = 200 * 1024

describe('automatic compaction', () => {
  it('F7: a prompt larger than the context is quoted in the checkpoint by a bounded head and tail, with a note', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'dsh.yaml': 'model:\n  contextWindow: 10000\n' })
    const script = (name: string, answer: string) => writeScript(tree.root, name, { responses: [{ text: answer }] })
    const log = tree.path('requests.jsonl')
    const base = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--config', tree.path('dsh.yaml'), '--request-log', log]
    const prompt = `START ${'p'.repeat(BIG - 10)} END`
    const first = await runDsh([...base, '--model', `scripted:${script('first.json', 'got it')}`, '-'], { cwd: tree.root, input: prompt })
    expect(first).toMatchObject({ code: 0, stdout: 'got it\n' })
    const second = await runDsh([...base, '--model', `scripted:${script('second.json', 'and more')}`, '--resume', sessionIdOf(first.stderr), 'and?'], { cwd: tree.root })
    expect(second).toMatchObject({ code: 0, stdout: 'and more\n' })
    const last = readRequests(log).at(-1)
    const checkpoint = last?.messages.find((message) => message.role === 'user' && (message.content ?? '').startsWith('[Conversation checkpoint]'))?.content ?? ''
    expect(checkpoint).toContain(`The user's latest request was too long to repeat whole (${prompt.length} characters); its first 2000 and last 2000 characters follow, the ${prompt.length - 4000} in between are left out (ask the user for the part you need):\n\nSTART p`)
    expect(checkpoint).toContain(`p END\n\nContinue from here;`)
    // The messages, not the tool list (which grows with every tool dsh gains), carry the prompt:
    // a 200 KiB prompt leaves them at about 7 KB (the system prompt, the 4,000 quoted characters).
    expect(JSON.stringify(last?.messages).length).toBeLessThan(10_000)
  })

  it('F8: a server that cannot be reached during automatic compaction is retried with one budget, not two', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'dsh.yaml': 'model:\n  contextWindow: 2000\n  maxRetries: 1\n' })
    server = await startSseServer([{ kind: 'sse', chunks: [text('first answer'), finish()] }, { kind: 'destroy' }])
    const base = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--config', tree.path('dsh.yaml'), '--model', 'openai:test-model', '--base-url', server.baseUrl]
    const env = { OPENAI_API_KEY: 'sk-test' }
    const first = await runDsh([...base, `remember ${'x'.repeat(12_000)}`], { cwd: tree.root, env })
    expect(first).toMatchObject({ code: 0, stdout: 'first answer\n' })
    const second = await runDsh([...base, '--resume', sessionIdOf(first.stderr), 'and now?'], { cwd: tree.root, env, timeoutMs: 60_000 })
    expect(second.code).toBe(1)
    // One request for the first run, then the summary call and its one retry; no second budget for the step.
    expect(server.requests).toHaveLength(3)
  })
})
