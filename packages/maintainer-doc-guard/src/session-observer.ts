/**
 * Follows the session log (`session/event`) to keep the intent and drift sensors current: a turn
 * start resets the per-turn budgets; a message a person wrote resets the prose and the steps
 * since the user spoke (plugin notices and other context never do); every assistant message
 * counts as a step and adds its visible text (not its reasoning) to the prose.
 */
import type { SessionEvent, SessionView } from '@dsh/contracts'
import { dataOf, messageText } from '@dsh/runtime'
import { freshTurn, type SessionStates } from './session-state.ts'

/** Narration kept for the relational check, in characters. */
export const PROSE_WINDOW = 4000

/** Applies one committed event to the session's state. */
export function observeEvent(states: SessionStates, session: SessionView, event: SessionEvent): void {
  const state = states.of(session)
  switch (event.type) {
    case 'turn/start':
      state.turn = freshTurn(dataOf(event, 'turn/start')?.turn ?? state.turn.turn + 1)
      return
    case 'user/message': {
      const message = dataOf(event, 'user/message')?.message
      if (message?.source.kind !== 'user') return
      state.prose = ''
      state.proseChars = 0
      state.stepsSinceUser = 0
      return
    }
    case 'assistant/message': {
      const message = dataOf(event, 'assistant/message')?.message
      state.turn.assistantMessages += 1
      state.stepsSinceUser += 1
      const text = message === undefined ? '' : messageText(message).trim()
      if (text === '') return
      state.proseChars += text.length
      state.prose = `${state.prose}\n${text}`.slice(-PROSE_WINDOW)
      return
    }
    default:
      return
  }
}
