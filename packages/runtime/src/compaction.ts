/**
 * Compaction: replaces the visible history before the last turn with one checkpoint message via
 * a surface `replace`. The replaced events stay in the log. The deterministic summary lists each
 * compacted turn's prompts and final answer; a model-written summary can be passed instead.
 */
import { randomUUID } from 'node:crypto'
import type { CoreSessionEventData, Message } from '@dsh/contracts'
import { eventMessage } from './derive-history.ts'
import { createUserMessage, messageText } from './message-factory.ts'
import type { Session } from './session.ts'

/** What a compaction would replace. */
export interface CompactionPlan {
  /** Surface index range `[0, end)` to replace. */
  readonly end: number
  /** Seqs of the replaced surface nodes. */
  readonly seqs: readonly number[]
  /** The replaced messages in order. */
  readonly messages: readonly Message[]
}

/** What a compaction may cover. */
export interface PlanOptions {
  /**
   * `before-last-turn` (default): everything visible before the last turn starts.
   * `completed-steps`: everything visible before the last `step/end` — used between the steps of
   * a long turn, where every tool call already has its result.
   */
  readonly scope?: 'before-last-turn' | 'completed-steps'
}

function isCheckpoint(session: Session, seq: number): boolean {
  const event = session.eventBySeq(seq)
  const message = event === undefined ? undefined : eventMessage(event)
  return message?.role === 'user' && message.source.kind === 'compaction'
}

/** Plans a compaction; undefined when nothing qualifies (nothing visible, or only a checkpoint). */
export function planCompaction(session: Session, options: PlanOptions = {}): CompactionPlan | undefined {
  const boundaryType = options.scope === 'completed-steps' ? 'step/end' : 'turn/start'
  const boundary = session.events.findLast((event) => event.type === boundaryType)
  if (boundary === undefined) return undefined
  const seqs = session.surface.filter((seq) => seq < boundary.seq)
  if (seqs.length === 0) return undefined
  // Replacing a lone checkpoint with a summary of itself gains nothing and would repeat every step.
  if (seqs.length === 1 && seqs[0] !== undefined && isCheckpoint(session, seqs[0])) return undefined
  const messages = seqs.flatMap((seq) => {
    const event = session.eventBySeq(seq)
    const message = event === undefined ? undefined : eventMessage(event)
    return message === undefined ? [] : [message]
  })
  return { end: seqs.length, seqs, messages }
}

const limit = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max)}…`)

/** Deterministic summary: each typed prompt and the answer that followed it. */
export function deterministicSummary(messages: readonly Message[]): string {
  const lines: string[] = []
  let answer = ''
  const flush = (): void => {
    if (answer !== '') lines.push(`Assistant: ${limit(answer.trim(), 2000)}`)
    answer = ''
  }
  for (const message of messages) {
    if (message.role === 'user' && (message.source.kind === 'user' || message.source.kind === 'compaction' || message.source.kind === 'delegation')) {
      flush()
      const label = message.source.kind === 'compaction' ? 'Earlier checkpoint' : 'User'
      lines.push(`${label}: ${limit(messageText(message).trim(), 2000)}`)
    } else if (message.role === 'assistant') {
      const text = messageText(message)
      if (text.trim() !== '') answer = text
    }
  }
  flush()
  return lines.join('\n')
}

/** Checkpoint text shown to the model. */
export function checkpointText(summary: string): string {
  return `[Conversation checkpoint] The earlier part of this session was compacted. Summary of what happened before:\n\n${summary}\n\nContinue from here; ask the user if something you need is missing from this summary.`
}

/** Applies a compaction; returns false when there is nothing to compact. */
export function compactSession(session: Session, options: { readonly summary?: string; readonly summarizer?: 'deterministic' | 'model'; readonly plan?: CompactionPlan } = {}): boolean {
  const plan = options.plan ?? planCompaction(session)
  if (plan === undefined) return false
  const summary = options.summary ?? deterministicSummary(plan.messages)
  const message = createUserMessage({
    text: checkpointText(summary),
    source: { kind: 'compaction', checkpointId: randomUUID(), summarizer: options.summary === undefined ? 'deterministic' : (options.summarizer ?? 'model') },
  })
  const data: CoreSessionEventData['user/message'] = { message }
  session.append('user/message', data, { surfaceOp: { op: 'replace', start: 0, end: plan.end }, sourceEventSeqs: plan.seqs })
  session.sync()
  return true
}
