// DeepSeek's thinking fields as live settings, through the built binary: a running `dsh chat`
// picks up `model.thinking` / `model.reasoningEffort` from settings.yaml for its next request
// (and the reasoning echo rule with them), `/status` says what the next request carries, and a
// command-line flag still wins over the settings file.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { startDeepSeekServer, tempTree, type DeepSeekServer, type TempTree } from '@dsh/testkit'
import { chatBinary } from './chat-harness.ts'
import { testEnv } from './run-dsh.ts'

let tree: TempTree | undefined
let server: DeepSeekServer | undefined
let chat: ChildProcessWithoutNullStreams | undefined
afterEach(async () => {
  if (chat !== undefined && chat.exitCode === null) {
    const ended = new Promise((resolve) => chat?.once('exit', resolve))
    chat.kill('SIGKILL')
    await ended
  }
  chat = undefined
  await server?.close()
  server = undefined
  await tree?.dispose()
  tree = undefined
})

/** A piped `dsh chat` whose stdout the test reads as it comes. */
function startChat(args: readonly string[]) {
  const current = tree
  if (current === undefined || server === undefined) throw new Error('no tree or server')
  const child = spawn(chatBinary(), ['--dsh-home', current.path('home'), 'chat', '--cwd', current.path('repo'), '--model', 'deepseek:deepseek-v4-flash', '--base-url', server.baseUrl, ...args], {
    cwd: current.root,
    env: testEnv(current.root, { NO_COLOR: '1', DEEPSEEK_API_KEY: 'sk-test-key-1234' }),
  })
  chat = child
  let out = ''
  const waiters: { test: () => boolean; resolve: () => void }[] = []
  const check = (): void => {
    for (const waiter of waiters.splice(0)) {
      if (waiter.test()) waiter.resolve()
      else waiters.push(waiter)
    }
  }
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8')
    check()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const holds = (text: string, count: number): boolean => out.split(text).length - 1 >= count
  /** Resolves once stdout holds `count` occurrences of `text`. */
  const seen = (text: string, count = 1): Promise<void> =>
    new Promise((resolve, reject) => {
      if (holds(text, count)) return resolve()
      waiters.push({ test: () => holds(text, count), resolve })
      void exited.then(() => (holds(text, count) ? resolve() : reject(new Error(`dsh chat ended before ${JSON.stringify(text)} ×${count}; stdout:\n${out}`))))
    })
  return { child, seen, exited, send: (line: string) => child.stdin.write(`${line}\n`), stdout: () => out }
}

/** Sends /status until its thinking line says `expected` (the settings file is reloaded on a file event). */
async function statusUntil(session: ReturnType<typeof startChat>, expected: string): Promise<void> {
  for (let round = 1; ; round++) {
    session.send('/status')
    await session.seen('cost:', round)
    const last = session.stdout().split('thinking:').at(-1) ?? ''
    if (last.startsWith(expected)) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

type Body = { thinking?: { type: string }; reasoning_effort?: string; messages?: { role: string; reasoning_content?: string }[] }
function bodyOf(record: { body: unknown } | undefined): Body {
  const body = record?.body
  // A body dsh sent, in the chat-completions shape: its fields are read as Body's optional ones.
  return typeof body === 'object' && body !== null ? body : {}
}

describe('thinking as a live setting', { timeout: 120_000 }, () => {
  it('an edit of settings.yaml changes the next request of a running chat, echo rule included', async () => {
    tree = await tempTree({ 'repo/notes.txt': 'alpha\n', 'home/': null })
    server = await startDeepSeekServer({
      answers: [
        { reasoning: 'Read the notes.', toolCalls: [{ name: 'read', arguments: '{"file_path":"notes.txt"}' }] },
        { reasoning: 'They say alpha.', text: 'first answer' },
        { text: 'second answer' },
      ],
      reasoningRule: 'strict',
    })
    const session = startChat([])
    await statusUntil(session, '   not sent (DeepSeek thinks by default); reasoning effort not sent')
    session.send('what do the notes say?')
    await session.seen('first answer')
    writeFileSync(tree.path('home/settings.yaml'), 'model:\n  thinking: disabled\n  reasoningEffort: max\n')
    await statusUntil(session, '   disabled; reasoning effort max')
    session.send('and now?')
    await session.seen('second answer')
    session.child.stdin.end()
    expect(await session.exited).toBe(0)
    expect(server.records.map((record) => record.status)).toEqual([200, 200, 200])
    const [first, second, third] = [0, 1, 2].map((index): Body => bodyOf(server?.records[index]))
    if (first === undefined || second === undefined || third === undefined) throw new Error('three requests expected')
    expect(first).not.toHaveProperty('thinking')
    expect(second).not.toHaveProperty('reasoning_effort')
    // Thinking on with tools: the earlier assistant message carried its reasoning back.
    expect(second.messages?.find((message) => message.role === 'assistant')?.reasoning_content).toBe('Read the notes.')
    expect(third).toMatchObject({ thinking: { type: 'disabled' }, reasoning_effort: 'max' })
    // Thinking off: no reasoning goes back.
    expect(third.messages?.filter((message) => message.role === 'assistant').some((message) => 'reasoning_content' in message)).toBe(false)
  })

  it('a command-line flag wins over settings.yaml', async () => {
    tree = await tempTree({ 'repo/': null, 'home/settings.yaml': 'model:\n  thinking: disabled\n  reasoningEffort: low\n' })
    server = await startDeepSeekServer({ answers: [{ reasoning: 'Hm.', text: 'flagged answer' }] })
    const session = startChat(['--thinking', '--effort', 'high'])
    await statusUntil(session, '   enabled; reasoning effort high')
    session.send('hello')
    await session.seen('flagged answer')
    session.child.stdin.end()
    expect(await session.exited).toBe(0)
    expect(bodyOf(server.records[0])).toMatchObject({ thinking: { type: 'enabled' }, reasoning_effort: 'high' })
  })
})
