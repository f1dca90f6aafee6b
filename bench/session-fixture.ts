/**
 * Writes large, realistic, never-compacted session files for the resume and list benchmarks
 * without running an agent: turns of one typed prompt and ten tool steps (`read`, `bash`, `write`
 * in turn, each with a result of about 600 characters), every line valid for the loader. Lines
 * are written in batches, so a 200 MB file takes seconds and little memory.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { seededRandom } from './seeded-random.ts'

/** A generated session. */
export interface SessionFixture {
  readonly id: string
  readonly file: string
  readonly events: number
  readonly bytes: number
}

/** What to generate. */
export interface FixtureOptions {
  /** The sessions directory. */
  readonly directory: string
  /** Session id (the file name stem). */
  readonly id: string
  /** Working directory recorded in the header. */
  readonly cwd: string
  /** Stop after at least this many events (a whole turn is always completed). */
  readonly events?: number
  /** Or: stop after at least this many bytes. */
  readonly bytes?: number
  /** Seed of the filler text. */
  readonly seed?: number
}

const STEPS_PER_TURN = 10
const TOOLS = ['read', 'bash', 'write'] as const

function argumentsOf(tool: (typeof TOOLS)[number], step: number): string {
  if (tool === 'read') return JSON.stringify({ file_path: `src/module-${step}.ts` })
  if (tool === 'bash') return JSON.stringify({ command: `npm test -- --grep case-${step}` })
  return JSON.stringify({ file_path: `src/out-${step}.ts`, content: `export const value${step} = ${step}\n` })
}

/** Generates the file; returns its id, path, event count and size. */
export function writeSessionFixture(options: FixtureOptions): SessionFixture {
  mkdirSync(options.directory, { recursive: true })
  const file = join(options.directory, `${options.id}.jsonl`)
  const random = seededRandom(options.seed ?? 7)
  const words = ['const', 'value', 'return', 'export', 'function', 'session', 'result', 'error', 'test', 'module', 'string', 'number']
  const filler = (length: number): string => {
    let text = ''
    while (text.length < length) text += `${random.pick(words)} `
    return text.slice(0, length)
  }
  const fd = openSync(file, 'w', 0o600)
  let bytes = 0
  let batch: string[] = []
  const flush = (): void => {
    const chunk = batch.join('')
    bytes += writeSync(fd, chunk)
    batch = []
  }
  const line = (value: unknown): void => {
    batch.push(`${JSON.stringify(value)}\n`)
    if (batch.length >= 5000) flush()
  }
  let seq = 0
  const event = (type: string, data: unknown, surface = false): void => {
    seq += 1
    line({ type, seq, time: new Date(Date.UTC(2026, 0, 2, 3, 4, 5) + seq * 1000).toISOString(), data, ...(surface ? { surfaceOp: 'append' } : {}) })
  }
  line({ type: 'session', version: 1, id: options.id, createdAt: '2026-01-02T03:04:05.000Z', cwd: options.cwd, delegationDepth: 0 })
  const done = (): boolean => (options.events !== undefined && seq >= options.events) || (options.bytes !== undefined && bytes + batch.join('').length >= options.bytes)
  try {
    for (let turn = 1; !done(); turn++) {
      const prompt = { id: `p${turn}`, role: 'user', content: [{ type: 'text', text: `Turn ${turn}: ${filler(120)}` }], source: { kind: 'user' } }
      event('agent/inbox/spliced', { target: 'next-turn', start: -1, removedIds: [], inserted: [prompt] })
      event('turn/start', { turn })
      event('agent/inbox/spliced', { target: 'next-turn', start: 0, removedIds: [prompt.id], inserted: [], outcome: 'claimed' })
      for (let step = 1; step <= STEPS_PER_TURN + 1; step++) {
        event('step/start', { turn, step })
        if (step === 1) event('user/message', { turn, step, message: prompt }, true)
        event('request/header', { turn, step, model: 'deepseek-v4-flash', provider: 'deepseek' })
        if (step > STEPS_PER_TURN) {
          event('assistant/message', { turn, step, message: { id: `a${turn}-${step}`, role: 'assistant', content: [{ type: 'text', text: filler(300) }], source: { kind: 'model' } }, usage: { inputTokens: 1000, outputTokens: 100 } }, true)
          event('step/end', { turn, step })
          break
        }
        const tool = TOOLS[step % TOOLS.length] ?? 'read'
        const callId = `call_t${turn}s${step}_1`
        const args = argumentsOf(tool, step)
        const call = { type: 'tool-call', callId, name: tool, arguments: args }
        event('assistant/message', { turn, step, message: { id: `a${turn}-${step}`, role: 'assistant', content: [{ type: 'text', text: filler(80) }, call], source: { kind: 'model' } }, usage: { inputTokens: 1000, outputTokens: 50 } }, true)
        event('tool/call', { turn, step, callId, name: tool, arguments: args })
        event('tool/result', { turn, step, message: { id: `r${turn}-${step}`, role: 'tool', callId, toolName: tool, isError: false, content: [{ type: 'text', text: filler(600) }], source: { kind: 'tool' } } }, true)
        event('step/end', { turn, step })
      }
      event('turn/end', { turn, reason: 'completed' })
    }
    flush()
  } finally {
    closeSync(fd)
  }
  return { id: options.id, file, events: seq, bytes }
}
