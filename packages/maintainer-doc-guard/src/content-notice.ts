/**
 * The landing check: an `edit` whose new text holds fewer number runs than the text it replaced
 * is the visible trace of deleting a sentence that carried a number or a conclusion. A number run
 * is a digit sequence with optional `.` or `,` groups (`3`, `1,024`, `0.75`). Judged when the
 * edit's result arrives (`tools/result`), so only an edit that actually changed the file is
 * reminded about (a failed edit deleted nothing); one notice per target and before → after pair
 * per session, delivered at the next step.
 */
import type { AgentHandle, ToolExecution, ToolFinalOutcome } from '@dsh/contracts'
import type { Counters } from './counters.ts'
import { displayPath } from './document-roles.ts'
import { deliverNotice } from './notice-delivery.ts'
import { contentNotice } from './notice-texts.ts'
import type { SessionState } from './session-state.ts'

const NUMBER_RUN = /\d+(?:[.,]\d+)*/gu

/** How many number runs `text` holds. */
export function numberRuns(text: string): number {
  return text.match(NUMBER_RUN)?.length ?? 0
}

/** The counts when an edit's arguments delete numbers. */
export function deletedNumbers(args: unknown): { readonly before: number; readonly after: number } | undefined {
  if (typeof args !== 'object' || args === null) return undefined
  const oldText: unknown = Reflect.get(args, 'old_string')
  const newText: unknown = Reflect.get(args, 'new_string')
  if (typeof oldText !== 'string' || typeof newText !== 'string') return undefined
  const before = numberRuns(oldText)
  const after = numberRuns(newText)
  return after < before ? { before, after } : undefined
}

/** What the landing check needs. */
export interface LandingCheck {
  readonly agent: AgentHandle
  readonly state: SessionState
  readonly counters: Counters
  readonly warn: (line: string) => void
  readonly execution: ToolExecution
  readonly outcome: ToolFinalOutcome
}

/** Sends the landing check for an edit that landed and deleted numbers (once per target and pair). */
export async function landingCheck(check: LandingCheck): Promise<void> {
  const { execution, outcome, state } = check
  const edited = outcome.status === 'ok' ? outcome.touched.find((touch) => touch.kind === 'edit')?.path : undefined
  const deleted = execution.name === 'edit' && edited !== undefined ? deletedNumbers(execution.arguments) : undefined
  if (edited === undefined || deleted === undefined) return
  const key = `${edited}\u0000${deleted.before}->${deleted.after}`
  if (state.contentNotices.has(key)) return
  state.contentNotices.add(key)
  const text = contentNotice(displayPath(check.agent.cwd, edited), deleted.before, deleted.after)
  await deliverNotice({ agent: check.agent, tag: 'content', text, tool: execution.name, dryRun: false, counters: check.counters, warn: check.warn })
  check.counters.add('contentNoticeSent')
}
