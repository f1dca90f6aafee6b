/** The number of the turn a session is in (its latest `turn/start`), 0 before the first. */
import type { SessionView } from '@dsh/contracts'

/** The latest turn number of the session's log. */
export function currentTurn(session: SessionView): number {
  for (let index = session.events.length - 1; index >= 0; index--) {
    const event = session.events[index]
    if (event?.type === 'turn/start') {
      const turn: unknown = typeof event.data === 'object' && event.data !== null ? Reflect.get(event.data, 'turn') : undefined
      if (typeof turn === 'number') return turn
    }
  }
  return 0
}
