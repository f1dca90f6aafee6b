// End to end through the built binary, with real processes and real signals: a crash campaign of
// 20 random SIGKILLs during a 40-step scripted run, a real short write (RLIMIT_FSIZE), and a
// prompt queued before a crash.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createUserMessage, SessionStore } from '@dsh/runtime'
import { tempTree, type TempTree } from '@dsh/testkit'
import { dshBinary, readRequests, runDsh, sessionIdOf, spawnCollect, testEnv, writeScript, type RequestBody } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

/** A small seeded PRNG (mulberry32), so a failing campaign can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Problems with tool calls in a request: a call without its result right after it, or a stray result. */
function unansweredCalls(body: RequestBody): string[] {
  const problems: string[] = []
  const messages = body.messages
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]
    if (message?.role === 'tool' && messages[index - 1]?.role !== 'tool' && messages[index - 1]?.tool_calls === undefined) problems.push(`stray tool result at ${index}`)
    const calls = (message?.tool_calls ?? []).map((call) => (typeof call === 'object' && call !== null && 'id' in call ? String(call.id) : '?'))
    if (calls.length === 0) continue
    const answered = new Set<string>()
    for (let next = index + 1; messages[next]?.role === 'tool'; next++) answered.add(messages[next]?.tool_call_id ?? '')
    for (const call of calls) if (!answered.has(call)) problems.push(`call ${call} at ${index} has no result`)
  }
  return problems
}

const steps = (count: number) =>
  Array.from({ length: count }, (_, index) => {
    switch (index % 3) {
      case 0:
        return { toolCalls: [{ name: 'bash', arguments: { command: `sleep 0.01; echo step ${index}` } }] }
      case 1:
        return { toolCalls: [{ name: 'write', arguments: { file_path: `out/${index}.txt`, content: `step ${index}\n`.repeat(20) } }] }
      default:
        return { toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }], text: `reading again at ${index}` }
    }
  })

interface KilledRun {
  readonly killed: boolean
  readonly stderr: string
}

/** Runs dsh and SIGKILLs it once its session file has grown by `growth` bytes (or after `delayMs` when set). */
function runAndKill(args: readonly string[], options: { cwd: string; sessions: string; growth: number; delayMs?: number; jitterMs: number }): Promise<KilledRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(dshBinary, [...args], { cwd: options.cwd, env: testEnv(options.cwd, { NO_COLOR: '1' }), stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    let killed = false
    let baseline: number | undefined
    const kill = () => {
      if (killed || child.exitCode !== null) return
      killed = child.kill('SIGKILL')
    }
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setInterval(() => {
      const match = /^session: (\S+)$/m.exec(stderr)
      if (options.delayMs !== undefined || match?.[1] === undefined) return
      const file = join(options.sessions, `${match[1]}.jsonl`)
      const size = existsSync(file) ? statSync(file).size : 0
      baseline ??= size
      if (size - baseline >= options.growth) {
        clearInterval(timer)
        setTimeout(kill, options.jitterMs)
      }
    }, 2)
    if (options.delayMs !== undefined) setTimeout(kill, options.delayMs)
    const guard = setTimeout(() => reject(new Error(`dsh ${args.join(' ')} hung\n${stderr}`)), 60_000)
    child.on('error', reject)
    child.on('exit', () => {
      clearInterval(timer)
      clearTimeout(guard)
      resolve({ killed, stderr })
    })
  })
}

describe('session recovery', () => {
  it('20 random SIGKILLs during a 40-step run: the session always loads and resumes, and no request has an unanswered tool call', { timeout: 300_000 }, async () => {
    tree = await tempTree({ 'repo/notes.txt': 'alpha\nbeta\n', 'repo/out/': null, 'scripts/': null })
    const seed = Number(process.env['DSH_CRASH_SEED'] ?? Date.now() % 100_000)
    const next = random(seed)
    const home = tree.path('home')
    const sessions = join(home, 'sessions')
    const script = writeScript(tree.path('scripts'), 'forty.json', { responses: [...steps(40), { text: 'all forty steps done' }] })
    const store = new SessionStore({ directory: sessions, clock: () => new Date(), warn: () => undefined })
    let id: string | undefined
    let kills = 0
    const context = () => `seed ${seed} (replay with DSH_CRASH_SEED=${seed}), kill ${kills}`
    for (let run = 0; kills < 20; run++) {
      expect(run, context()).toBeLessThan(60)
      const log = tree.path(`requests-${run}.jsonl`)
      const resume = id === undefined ? [] : ['--resume', id]
      const early = id !== undefined && next() < 0.15
      const outcome = await runAndKill(['--dsh-home', home, 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log, ...resume, `batch ${run}`], {
        cwd: tree.root,
        sessions,
        growth: Math.floor(next() * 30_000),
        jitterMs: Math.floor(next() * 4),
        ...(early ? { delayMs: Math.floor(next() * 400) } : {}),
      })
      id ??= sessionIdOf(outcome.stderr)
      if (outcome.killed) kills += 1
      const file = join(sessions, `${id}.jsonl`)
      expect(readFileSync(file).includes(0), context()).toBe(false)
      expect(() => store.load(id ?? ''), context()).not.toThrow()
      if (existsSync(log)) {
        const [first] = readRequests(log, { complete: true })
        if (first !== undefined) expect(unansweredCalls(first), context()).toEqual([])
      }
    }
    const finalScript = writeScript(tree.path('scripts'), 'final.json', { responses: [{ text: 'recovered' }] })
    const log = tree.path('requests-final.jsonl')
    const final = await runDsh(['--dsh-home', home, 'run', '--model', `scripted:${finalScript}`, '--request-log', log, '--resume', id ?? '', 'are we fine?'], { cwd: tree.root })
    expect(final, context()).toMatchObject({ code: 0, stdout: 'recovered\n' })
    const [request] = readRequests(log)
    expect(request, context()).toBeDefined()
    expect(unansweredCalls(request ?? { model: '', messages: [] }), context()).toEqual([])
    expect(request?.messages.at(-1)?.content).toBe('are we fine?')
    const shown = await runDsh(['--dsh-home', home, 'sessions', 'show', id ?? ''], { cwd: tree.root })
    expect(shown.code, context()).toBe(0)
    // Most kills must have landed inside a turn, or the campaign proved little.
    const interrupted = store.load(id ?? '').events.filter((event) => event.type === 'turn/end' && JSON.stringify(event.data).includes('interrupted: dsh stopped'))
    expect(interrupted.length, context()).toBeGreaterThanOrEqual(10)
  })

  it('a real short write (file size limit reached mid-line) stops dsh with one line naming the file and the last intact event; the session resumes', async () => {
    tree = await tempTree({ 'repo/notes.txt': 'alpha\n'.repeat(200), 'scripts/': null })
    const home = tree.path('home')
    const script = writeScript(tree.path('scripts'), 'reads.json', { responses: [...Array.from({ length: 30 }, () => ({ toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] })), { text: 'never reached' }] })
    // A file size limit makes the kernel cut the write that crosses it short (then fail with EFBIG);
    // SIGXFSZ is ignored so dsh sees the short count, as on a disk that fills mid-line.
    const limited = await spawnCollect('bash', ['-c', `trap '' XFSZ; ulimit -f 24; exec "$@"`, 'bash', dshBinary, '--dsh-home', home, 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, 'read it many times'], {
      cwd: tree.root,
      env: testEnv(tree.root, { NO_COLOR: '1' }),
    })
    const id = sessionIdOf(limited.stderr)
    const file = join(home, 'sessions', `${id}.jsonl`)
    expect(limited.code).toBe(1)
    const lines = limited.stderr.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toMatch(new RegExp(`^dsh: cannot append to ${file}: short write \\(\\d+ of \\d+ bytes; the disk may be full\\); the session is intact up to event (\\d+)$`))
    const intact = Number(/event (\d+)$/.exec(lines[1] ?? '')?.[1])
    const store = new SessionStore({ directory: join(home, 'sessions'), clock: () => new Date(), warn: () => undefined })
    expect(store.load(id).events.at(-1)?.seq).toBe(intact)
    expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true)
    const more = writeScript(tree.path('scripts'), 'more.json', { responses: [{ text: 'resumed fine' }] })
    const log = tree.path('requests.jsonl')
    const resumed = await runDsh(['--dsh-home', home, 'run', '--model', `scripted:${more}`, '--request-log', log, '--resume', id, 'go on'], { cwd: tree.root })
    expect(resumed).toMatchObject({ code: 0, stdout: 'resumed fine\n' })
    expect(unansweredCalls(readRequests(log)[0] ?? { model: '', messages: [] })).toEqual([])
  })

  it('a prompt queued before a crash is named in one warning line on resume and never runs by itself', async () => {
    tree = await tempTree({ 'repo/': null, 'scripts/': null })
    const home = tree.path('home')
    const store = new SessionStore({ directory: join(home, 'sessions'), clock: () => new Date(), warn: () => undefined })
    const session = store.create({ cwd: tree.path('repo') })
    const queued = createUserMessage({ text: 'delete the build directory', source: { kind: 'user' } })
    session.append('agent/inbox/spliced', { target: 'next-turn', start: -1, removedIds: [], inserted: [queued] })
    session.close()
    const script = writeScript(tree.path('scripts'), 'one.json', { responses: [{ text: 'only the new prompt ran' }] })
    const log = tree.path('requests.jsonl')
    const resumed = await runDsh(['--dsh-home', home, 'run', '--model', `scripted:${script}`, '--request-log', log, '--resume', session.id, 'what time is it?'], { cwd: tree.root })
    expect(resumed).toMatchObject({
      code: 0,
      stdout: 'only the new prompt ran\n',
      stderr: `warning: a prompt queued before dsh stopped was not run: "delete the build directory" (send it again to run it)\nsession: ${session.id}\n`,
    })
    expect(readRequests(log).map((body) => body.messages.slice(1).map((message) => message.content))).toEqual([['what time is it?']])
  })
})
