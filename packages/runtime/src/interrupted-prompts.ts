/**
 * Prompts a person queued before dsh stopped (a crash, `kill -9`, a closed terminal) must not run
 * by themselves when the session is resumed: the user may have moved on, and a whole turn with
 * tools would run unasked before their new prompt. When a loop instance starts, every typed item
 * still queued (either queue) or claimed by a step that never entered it is closed with a logged
 * `agent/inbox/spliced` of outcome `interrupted` and reported, so the front end can show it and the
 * user can send it again. Items that were not typed (plugin notices, a child session's delegation)
 * are context rather than requests: they stay queued, and lost ones go back to the front.
 */
import type { InboxTarget, UserMessage } from '@dsh/contracts'
import type { RecoveredQueues } from './inbox.ts'
import type { Session } from './session.ts'

/** Queues after closing interrupted prompts, and the prompts closed. */
export interface ClosedPrompts {
  /** What stays queued (and lost items to put back). */
  readonly queues: RecoveredQueues
  /** The prompts closed as interrupted, in queue order. */
  readonly interrupted: readonly UserMessage[]
}

const typed = (message: UserMessage): boolean => message.source.kind === 'user'

/** One line naming an interrupted prompt (quoted and escaped, shortened to 80 characters). */
export function interruptedPromptLine(message: UserMessage): string {
  const text = message.content
    .map((block) => block.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim()
  const shown = text.length <= 80 ? text : `${text.slice(0, 79)}…`
  return `a prompt queued before dsh stopped was not run: ${JSON.stringify(shown)} (send it again to run it)`
}

/** Closes every typed prompt recovered from before the process stopped; appends one splice per queue. */
export function closeInterruptedPrompts(session: Session, recovered: RecoveredQueues): ClosedPrompts {
  const interrupted: UserMessage[] = []
  const close = (target: InboxTarget, queued: readonly UserMessage[]): void => {
    const lost = recovered.lost.filter((item) => item.target === target && typed(item.message)).map((item) => item.message)
    const closing = [...lost, ...queued.filter(typed)]
    if (closing.length === 0) return
    session.append('agent/inbox/spliced', { target, start: 0, removedIds: closing.map((message) => message.id), inserted: [], outcome: 'interrupted' })
    interrupted.push(...closing)
  }
  close('next-turn', recovered.nextTurn)
  close('next-step', recovered.nextStep)
  return {
    interrupted,
    queues: {
      nextTurn: recovered.nextTurn.filter((message) => !typed(message)),
      nextStep: recovered.nextStep.filter((message) => !typed(message)),
      lost: recovered.lost.filter((item) => !typed(item.message)),
    },
  }
}
