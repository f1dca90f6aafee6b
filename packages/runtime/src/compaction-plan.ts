/**
 * Which visible messages a compaction replaces. Three scopes:
 * - `at-rest`: with no turn running (`dsh compact`, `/compact`), everything completed: the whole
 *   visible history when the last turn ended, else (a turn cut off by a crash) everything before it;
 * - `before-last-turn`: everything visible before the last turn started (the first choice of
 *   automatic compaction);
 * - `completed-steps`: inside one long turn, the steps between the turn's entered prompt batch and
 *   its most recent completed step. The prompt and the latest step (an assistant message with its
 *   tool results) stay visible, so the model keeps its goal and what it just learned, and a tool
 *   call is never separated from its result.
 * When the replaced part holds the last prompt the user typed and none stays visible after it, the
 * plan names that prompt so the checkpoint can keep it verbatim.
 */
import type { Message, SessionEvent } from '@dsh/contracts'
import { eventMessage } from './derive-history.ts'
import { dataOf } from './event-data.ts'
import { messageText } from './message-factory.ts'
import type { Session } from './session.ts'

/** What a compaction would replace. */
export interface CompactionPlan {
  /** First surface index replaced. */
  readonly start: number
  /** Surface index after the last one replaced (`[start, end)`). */
  readonly end: number
  /** Seqs of the replaced surface nodes. */
  readonly seqs: readonly number[]
  /** The replaced messages in order. */
  readonly messages: readonly Message[]
  /** The last typed prompt (or delegation) among them, when no prompt stays visible after them. */
  readonly keptPrompt?: string
}

/** What a compaction may cover. */
export interface PlanOptions {
  /** See the module header; default `before-last-turn`. */
  readonly scope?: 'at-rest' | 'before-last-turn' | 'completed-steps'
}

function messageAt(session: Session, seq: number | undefined): Message | undefined {
  const event = seq === undefined ? undefined : session.eventBySeq(seq)
  return event === undefined ? undefined : eventMessage(event)
}

function isCheckpoint(message: Message | undefined): boolean {
  return message?.role === 'user' && message.source.kind === 'compaction'
}

function rangeBeforeLastTurn(session: Session): [number, number] | undefined {
  const turnStart = session.events.findLast((event) => event.type === 'turn/start')
  if (turnStart === undefined) return undefined
  let end = 0
  while (end < session.surface.length && (session.surface[end] ?? Infinity) < turnStart.seq) end++
  return [0, end]
}

function rangeAtRest(session: Session): [number, number] | undefined {
  const turnStart = session.events.findLast((event) => event.type === 'turn/start')
  const turnEnd = session.events.findLast((event) => event.type === 'turn/end')
  if (turnStart !== undefined && (turnEnd === undefined || turnEnd.seq < turnStart.seq)) return rangeBeforeLastTurn(session)
  return [0, session.surface.length]
}

function isPrompt(message: Message | undefined): boolean {
  return message?.role === 'user' && (message.source.kind === 'user' || message.source.kind === 'delegation')
}

function rangeOfCompletedSteps(session: Session): [number, number] | undefined {
  const turnStart = session.events.findLast((event) => event.type === 'turn/start')
  const lastStep = session.events.findLast((event) => event.type === 'step/start')
  const turn = turnStart === undefined ? undefined : dataOf(turnStart, 'turn/start')?.turn
  if (turnStart === undefined || lastStep === undefined || lastStep.seq < turnStart.seq || turn === undefined) return undefined
  const isPromptBatch = (event: SessionEvent | undefined): boolean => {
    const entered = event === undefined ? undefined : dataOf(event, 'user/message')
    return entered?.turn === turn && entered.step === 1
  }
  const { surface } = session
  let start = surface.findIndex((seq) => isPromptBatch(session.eventBySeq(seq)))
  if (start < 0) return undefined
  while (start < surface.length && isPromptBatch(session.eventBySeq(surface[start] ?? 0))) start++
  let end = start
  while (end < surface.length && (surface[end] ?? Infinity) < lastStep.seq) end++
  return [start, end]
}

/** Plans a compaction; undefined when nothing qualifies (nothing visible, or only a checkpoint). */
export function planCompaction(session: Session, options: PlanOptions = {}): CompactionPlan | undefined {
  const range = rangeFor(session, options.scope ?? 'before-last-turn')
  if (range === undefined) return undefined
  const [start, end] = range
  const seqs = session.surface.slice(start, end)
  if (seqs.length === 0) return undefined
  // Replacing a lone checkpoint with a summary of itself gains nothing and would repeat every step.
  if (seqs.length === 1 && isCheckpoint(messageAt(session, seqs[0]))) return undefined
  const messages = seqs.flatMap((seq) => messageAt(session, seq) ?? [])
  const promptLater = session.surface.slice(end).some((seq) => isPrompt(messageAt(session, seq)))
  const last = promptLater ? undefined : messages.findLast((message) => isPrompt(message))
  const keptPrompt = last === undefined ? undefined : messageText(last)
  return { start, end, seqs, messages, ...(keptPrompt === undefined ? {} : { keptPrompt }) }
}

function rangeFor(session: Session, scope: NonNullable<PlanOptions['scope']>): [number, number] | undefined {
  switch (scope) {
    case 'at-rest':
      return rangeAtRest(session)
    case 'before-last-turn':
      return rangeBeforeLastTurn(session)
    case 'completed-steps':
      return rangeOfCompletedSteps(session)
    default: {
      const unreachable: never = scope
      throw new Error(`unknown compaction scope ${String(unreachable)}`)
    }
  }
}
