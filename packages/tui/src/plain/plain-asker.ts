/**
 * Permission questions in the plain mode: the code or arguments are printed above one question
 * line ending in `[y/N] ` (for a person at a terminal, with the answers listed between them). `y` runs the call once, `a` allows the command prefix (or the tool) for
 * the session, `t` the whole tool, `n: why` rejects with a note for the model; anything else,
 * the end of input or a cancel rejects.
 */
import type { PermissionDecision } from '@dsh/contracts'
import type { Asker } from '../approvals/approval-broker.ts'
import type { PermissionQuestion } from '../approvals/permission-question.ts'
import type { LineInput } from './line-input.ts'
import type { PlainView } from './plain-view.ts'

/** Maps a typed answer to a decision. */
export function plainAnswer(question: PermissionQuestion, answer: string | undefined): PermissionDecision {
  const text = (answer ?? '').trim()
  const note = /^no?\s*[:,-]?\s+(.+)$/i.exec(text)?.[1]
  if (note !== undefined) return { kind: 'reject', note }
  const key = text.toLowerCase()
  const pick = (wanted: string): PermissionDecision | undefined => question.options.find((option) => option.key === wanted)?.decision
  if (key === 'y' || key === 'yes') return { kind: 'allow-once' }
  if (key === 'a' || key === 'always') return pick('a') ?? pick('t') ?? { kind: 'reject' }
  if (key === 't') return pick('t') ?? { kind: 'reject' }
  return { kind: 'reject' }
}

/** The answers on offer, one per line with the key that picks it (shown to a person at a terminal). */
export function plainChoices(question: PermissionQuestion): string[] {
  return question.options.map((option) => (option.withNote === true ? `  ${'n: WHY'.padEnd(8)}No, and tell the model WHY` : `  ${option.key.padEnd(8)}${option.label}${option.key === 'n' ? ' (also Enter)' : ''}`))
}

/** The plain mode's asker over its line input; `showChoices` lists the answers above the question. */
export function plainAsker(input: LineInput, view: PlainView, options: { readonly showChoices: boolean }): Asker {
  return async (question, signal) => {
    view.newline()
    view.lines(question.detail)
    view.lines(question.context)
    if (options.showChoices) view.lines(plainChoices(question))
    const answer = await input.ask(`${question.title} [y/N] `, signal)
    view.markLineStart()
    return plainAnswer(question, answer)
  }
}
