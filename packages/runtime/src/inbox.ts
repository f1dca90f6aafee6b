/**
 * The durable inbox: messages queued for the next step or the next turn. Every mutation is
 * logged as `agent/inbox/spliced` before it takes effect, so a recovered session rebuilds the
 * same queues from its log (see `recoverInbox`).
 */
import type { CoreSessionEventData, InboxMutations, InboxTarget, SessionEvent, UserMessage } from '@dsh/contracts'
import { dataOf } from './event-data.ts'
import type { Session } from './session.ts'

type Splice = CoreSessionEventData['agent/inbox/spliced']

/** Queues rebuilt from a log. */
export interface RecoveredQueues {
  /** Next-step queue (without `lost` items). */
  readonly nextStep: UserMessage[]
  /** Next-turn queue (without `lost` items). */
  readonly nextTurn: UserMessage[]
  /** Items claimed by a step that never entered them (a crash in between), in queue order; the caller puts them back. */
  readonly lost: readonly { readonly message: UserMessage; readonly target: InboxTarget }[]
}

function applySplice(queue: UserMessage[], splice: Splice): UserMessage[] {
  const removed = new Set(splice.removedIds)
  const kept = queue.filter((message) => !removed.has(message.id))
  const at = splice.start < 0 || splice.start > kept.length ? kept.length : splice.start
  return [...kept.slice(0, at), ...splice.inserted, ...kept.slice(at)]
}

/**
 * Rebuilds the queues from a log. Items that were claimed but never entered history (a crash
 * between the claim and the step) are returned as `lost`, for the caller to put back at the front
 * of their queue with a logged splice (so the repair itself is durable).
 */
export function recoverInbox(events: readonly SessionEvent[]): RecoveredQueues {
  let nextStep: UserMessage[] = []
  let nextTurn: UserMessage[] = []
  const claimed = new Map<string, { message: UserMessage; target: InboxTarget }>()
  for (const event of events) {
    const splice = dataOf(event, 'agent/inbox/spliced')
    const entered = dataOf(event, 'user/message')
    if (splice !== undefined) {
      const queue = splice.target === 'next-step' ? nextStep : nextTurn
      if (splice.outcome === 'claimed') {
        for (const message of queue) if (splice.removedIds.includes(message.id)) claimed.set(message.id, { message, target: splice.target })
      }
      // Closed as interrupted on an earlier resume: never lost again.
      if (splice.outcome === 'interrupted') for (const id of splice.removedIds) claimed.delete(id)
      const next = applySplice(queue, splice)
      if (splice.target === 'next-step') nextStep = next
      else nextTurn = next
    } else if (entered !== undefined) {
      claimed.delete(entered.message.id)
    } else if (event.type === 'step/end' || event.type === 'turn/end') {
      // Claimed items that a finished step or turn did not enter were consumed by a decision (a veto or an empty batch).
      claimed.clear()
    }
  }
  return { nextStep, nextTurn, lost: [...claimed.values()] }
}

/** The live inbox of one agent. */
export class Inbox implements InboxMutations {
  #nextStep: UserMessage[]
  #nextTurn: UserMessage[]
  readonly #session: Session

  constructor(session: Session, queues: RecoveredQueues) {
    this.#session = session
    this.#nextStep = [...queues.nextStep]
    this.#nextTurn = [...queues.nextTurn]
  }

  get nextStep(): readonly UserMessage[] {
    return this.#nextStep
  }

  get nextTurn(): readonly UserMessage[] {
    return this.#nextTurn
  }

  get hasPending(): boolean {
    return this.#nextStep.length > 0 || this.#nextTurn.length > 0
  }

  #splice(splice: Splice): void {
    this.#session.append('agent/inbox/spliced', splice)
    if (splice.target === 'next-step') this.#nextStep = applySplice(this.#nextStep, splice)
    else this.#nextTurn = applySplice(this.#nextTurn, splice)
  }

  append(target: InboxTarget, message: UserMessage): Promise<void> {
    this.#splice({ target, start: -1, removedIds: [], inserted: [message] })
    return Promise.resolve()
  }

  prepend(target: InboxTarget, message: UserMessage): Promise<void> {
    this.#splice({ target, start: 0, removedIds: [], inserted: [message] })
    return Promise.resolve()
  }

  remove(id: string): Promise<boolean> {
    const target: InboxTarget | undefined = this.#nextStep.some((m) => m.id === id) ? 'next-step' : this.#nextTurn.some((m) => m.id === id) ? 'next-turn' : undefined
    if (target === undefined) return Promise.resolve(false)
    this.#splice({ target, start: 0, removedIds: [id], inserted: [], outcome: 'canceled' })
    return Promise.resolve(true)
  }

  /** Claims every next-step item plus, when `withTurnItem`, the first next-turn item (placed first). */
  claim(withTurnItem: boolean): UserMessage[] {
    const turnItem = withTurnItem ? this.#nextTurn[0] : undefined
    if (turnItem !== undefined) this.#splice({ target: 'next-turn', start: 0, removedIds: [turnItem.id], inserted: [], outcome: 'claimed' })
    const stepItems = [...this.#nextStep]
    if (stepItems.length > 0) this.#splice({ target: 'next-step', start: 0, removedIds: stepItems.map((m) => m.id), inserted: [], outcome: 'claimed' })
    return turnItem === undefined ? stepItems : [turnItem, ...stepItems]
  }
}
