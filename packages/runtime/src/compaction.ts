/**
 * Compaction: replaces part of the visible history (see `compaction-plan.ts`) with one checkpoint
 * message via a surface `replace`. The replaced events stay in the log. The deterministic summary
 * lists prompts, tool calls with short results, and answers, in order; a model-written summary can
 * be passed instead. When the plan replaces the user's latest prompt (compaction at rest), the
 * checkpoint repeats that prompt verbatim after the summary — up to `keptPromptMaxChars`; a longer
 * prompt is quoted by a bounded head and tail with a note saying how much was left out, so a
 * prompt too big for the context never makes the checkpoint too big as well. Without a plan,
 * `compactSession` compacts at rest: everything completed, the last turn included.
 */
import { randomUUID } from 'node:crypto'
import type { CoreSessionEventData, Message } from '@dsh/contracts'
import { planCompaction, type CompactionPlan } from './compaction-plan.ts'
import { createUserMessage, messageText } from './message-factory.ts'
import type { Session } from './session.ts'

export { planCompaction, type CompactionPlan, type PlanOptions } from './compaction-plan.ts'

const limit = (text: string, max: number): string => {
  const flat = text.trim()
  return flat.length <= max ? flat : `${flat.slice(0, max)}…`
}

const checkpointHead = '[Conversation checkpoint] The earlier part of this session was compacted. Summary of what happened before:\n\n'
const checkpointTail = '\n\nContinue from here; ask the user if something you need is missing from this summary.'
const keptPromptHead = "\n\nThe user's latest request, verbatim:\n\n"

/** The summary inside a checkpoint's text (the text itself when it is not one). */
export function unwrapCheckpoint(text: string): string {
  return text.startsWith(checkpointHead) && text.endsWith(checkpointTail) ? text.slice(checkpointHead.length, text.length - checkpointTail.length) : text
}

/** Longest deterministic summary; beyond it the middle is dropped (the start holds the goal, the end the latest work). */
const SUMMARY_MAX_CHARS = 8000

function capSummary(lines: readonly string[]): string {
  const text = lines.join('\n')
  if (text.length <= SUMMARY_MAX_CHARS) return text
  const head = text.slice(0, SUMMARY_MAX_CHARS / 4)
  const tail = text.slice(text.length - (SUMMARY_MAX_CHARS * 3) / 4)
  return `${head}\n[… ${text.length - head.length - tail.length} characters of the summary omitted …]\n${tail}`
}

/** Deterministic summary: prompts, tool calls with short results, and answers, in order. */
export function deterministicSummary(messages: readonly Message[]): string {
  const lines: string[] = []
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        if (message.source.kind === 'compaction') lines.push(unwrapCheckpoint(messageText(message)))
        else if (message.source.kind === 'user' || message.source.kind === 'delegation') lines.push(`User: ${limit(messageText(message), 2000)}`)
        break
      case 'assistant': {
        const text = messageText(message)
        if (text.trim() !== '') lines.push(`Assistant: ${limit(text, 2000)}`)
        for (const block of message.content) if (block.type === 'tool-call') lines.push(`Called ${block.name} ${limit(block.arguments, 200)}`)
        break
      }
      case 'tool':
        lines.push(`→ ${message.toolName} ${message.isError ? 'error' : 'ok'}: ${limit(messageText(message).split('\n')[0] ?? '', 200)}`)
        break
      default: {
        const unreachable: never = message
        throw new Error(`unknown message ${JSON.stringify(unreachable)}`)
      }
    }
  }
  return capSummary(lines)
}

/** Longest latest prompt a checkpoint repeats whole when the caller names no limit (about 8k tokens). */
export const KEPT_PROMPT_MAX_CHARS = 32_000

/** The latest prompt as the checkpoint quotes it: whole, or its head and tail with a note. */
function keptPromptText(prompt: string, maxChars: number): string {
  if (prompt.length <= maxChars) return `${keptPromptHead}${prompt}`
  const head = prompt.slice(0, Math.floor(maxChars / 2))
  const tail = prompt.slice(prompt.length - Math.floor(maxChars / 2))
  const omitted = prompt.length - head.length - tail.length
  return (
    `\n\nThe user's latest request was too long to repeat whole (${prompt.length} characters); its first ${head.length} and last ${tail.length} characters follow, ` +
    `the ${omitted} in between are left out (ask the user for the part you need):\n\n${head}\n[… ${omitted} characters left out …]\n${tail}`
  )
}

/** Checkpoint text shown to the model; `keptPrompt` is repeated after the summary (bounded by `keptPromptMaxChars`). */
export function checkpointText(summary: string, keptPrompt?: string, keptPromptMaxChars = KEPT_PROMPT_MAX_CHARS): string {
  return `${checkpointHead}${summary}${keptPrompt === undefined ? '' : keptPromptText(keptPrompt, keptPromptMaxChars)}${checkpointTail}`
}

/** Applies a compaction (by default at rest, see the module header); returns false when there is nothing to compact. */
export function compactSession(session: Session, options: { readonly summary?: string; readonly summarizer?: 'deterministic' | 'model'; readonly plan?: CompactionPlan; readonly keptPromptMaxChars?: number } = {}): boolean {
  const plan = options.plan ?? planCompaction(session, { scope: 'at-rest' })
  if (plan === undefined) return false
  const summary = options.summary ?? deterministicSummary(plan.messages)
  const message = createUserMessage({
    text: checkpointText(summary, plan.keptPrompt, options.keptPromptMaxChars),
    source: { kind: 'compaction', checkpointId: randomUUID(), summarizer: options.summary === undefined ? 'deterministic' : (options.summarizer ?? 'model') },
  })
  const data: CoreSessionEventData['user/message'] = { message }
  session.append('user/message', data, { surfaceOp: { op: 'replace', start: plan.start, end: plan.end }, sourceEventSeqs: plan.seqs })
  session.sync()
  return true
}
