/**
 * The turns of a session as a rewind sees them: number, start time, first line of the prompt, the
 * seq of its `turn/start`, and which turns completed rewinds took back (their files, their
 * conversation, or both; a later undo gives them back).
 */
import type { SessionEvent, SessionView } from '@dsh/contracts'
import type { RewindRecord } from './checkpoint-types.ts'

/** One turn of the log. */
export interface TurnRow {
  readonly turn: number
  /** ISO time of its `turn/start`. */
  readonly time: string
  /** Seq of its `turn/start`. */
  readonly startSeq: number
  /** First line of the prompt that started it ('' when none is found). */
  readonly prompt: string
  /** The whole text of that prompt ('' when none is found). */
  readonly promptText: string
}

/** Which turns are taken back. */
export interface RewoundTurns {
  /** Turns whose file changes a rewind undid. */
  readonly code: ReadonlySet<number>
  /** Turns whose messages a rewind hid from the model. */
  readonly conversation: ReadonlySet<number>
}

const field = (event: SessionEvent, name: string): unknown => (typeof event.data === 'object' && event.data !== null ? Reflect.get(event.data, name) : undefined)

/** The text of the person's prompt `event` holds, or undefined when it holds none. */
function promptOf(event: SessionEvent): string | undefined {
  if (event.type !== 'user/message') return undefined
  const message: unknown = field(event, 'message')
  if (typeof message !== 'object' || message === null) return undefined
  const source: unknown = Reflect.get(message, 'source')
  if (typeof source !== 'object' || source === null || Reflect.get(source, 'kind') !== 'user') return undefined
  const content: unknown = Reflect.get(message, 'content')
  if (!Array.isArray(content)) return ''
  return content.map((block: unknown) => (typeof block === 'object' && block !== null && typeof Reflect.get(block, 'text') === 'string' ? String(Reflect.get(block, 'text')) : '')).join('')
}

const firstLine = (text: string): string => text.split('\n').find((line) => line.trim() !== '')?.trim() ?? ''

/** Every turn of the log, in order. */
export function turnRows(session: SessionView): TurnRow[] {
  const rows: { turn: number; time: string; startSeq: number; prompt: string | undefined }[] = []
  for (const event of session.events) {
    const turn = event.type === 'turn/start' ? field(event, 'turn') : undefined
    if (typeof turn === 'number') rows.push({ turn, time: event.time, startSeq: event.seq, prompt: undefined })
    const last = rows.at(-1)
    if (last !== undefined && last.prompt === undefined) last.prompt = promptOf(event)
  }
  return rows.map((row) => ({ turn: row.turn, time: row.time, startSeq: row.startSeq, prompt: firstLine(row.prompt ?? ''), promptText: row.prompt ?? '' }))
}

function toggle(set: Set<number>, turn: number, on: boolean): void {
  if (on) set.add(turn)
  else set.delete(turn)
}

/** Replays the committed rewinds (oldest first) into the sets of rewound turns. */
export function rewoundTurns(records: readonly RewindRecord[]): RewoundTurns {
  const code = new Set<number>()
  const conversation = new Set<number>()
  const byId = new Map(records.map((record) => [record.id, record]))
  for (const record of records) {
    const undone = record.kind === 'undo' && record.undoes !== undefined ? byId.get(record.undoes) : undefined
    const target = record.kind === 'undo' ? undone : record
    if (target === undefined) continue
    for (const turn of target.turns) {
      if (target.code) toggle(code, turn, record.kind === 'rewind')
      if (target.conversation) toggle(conversation, turn, record.kind === 'rewind')
    }
  }
  return { code, conversation }
}

/** The latest rewind not undone yet, if any. */
export function lastOpenRewind(records: readonly RewindRecord[]): RewindRecord | undefined {
  const undone = new Set(records.flatMap((record) => (record.kind === 'undo' && record.undoes !== undefined ? [record.undoes] : [])))
  return records.findLast((record) => record.kind === 'rewind' && !undone.has(record.id))
}
