/**
 * An answer with nothing in it: the turn completed but its last model answer carried no text and
 * no tool call (reasoning alone does not count). `dsh run` then says so on stderr and exits 1 —
 * a silent exit 0 with empty output would look like success (issue 22 F22).
 */
import type { SessionEvent } from '@dsh/contracts'
import { dataOf } from '@dsh/runtime'

/** The stable code of an empty answer in `--output-format json|stream-json`. */
export const EMPTY_ANSWER_CODE = 'MODEL_EMPTY_ANSWER'

/** The one-line notice when turn `turn`'s last answer is empty; undefined when it said something or called a tool. */
export function emptyAnswerNotice(events: readonly SessionEvent[], turn: number): string | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index]
    const data = event === undefined ? undefined : dataOf(event, 'assistant/message')
    if (data === undefined || data.turn !== turn) continue
    const said = data.message.content.some((block) => (block.type === 'text' && block.text.trim() !== '') || block.type === 'tool-call')
    return said ? undefined : 'the model answered with no text and no tool call: nothing to print; run again, or continue the session with --resume'
  }
  return undefined
}
