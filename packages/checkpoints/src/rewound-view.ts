/**
 * How `dsh sessions show` marks rewound turns: one line naming them (and which half was rewound),
 * and, for `--messages`, the events of the turns whose conversation was taken back, so they stay
 * readable although the model no longer sees them.
 */
import type { Message, SessionView } from '@dsh/contracts'
import { eventMessage } from '@dsh/runtime'
import { CheckpointDirectory } from './checkpoint-directory.ts'
import { rewoundTurns, turnRows } from './turn-history.ts'

/** The "rewound turns" line, undefined when no turn is rewound. */
export function rewoundLine(dshHome: string, session: SessionView): string | undefined {
  const directory = new CheckpointDirectory(dshHome, session.header.id)
  if (!directory.exists()) return undefined
  const { code, conversation } = rewoundTurns(directory.rewinds())
  const turns = [...new Set([...code, ...conversation])].toSorted((a, b) => a - b)
  if (turns.length === 0) return undefined
  const halves = (turn: number): string => [code.has(turn) ? 'files' : '', conversation.has(turn) ? 'conversation' : ''].filter((half) => half !== '').join('+')
  return `rewound turns: ${turns.map((turn) => `${turn} (${halves(turn)})`).join(', ')}`
}

/** The messages of each turn whose conversation was rewound, by turn. */
export function rewoundMessages(dshHome: string, session: SessionView): { readonly turn: number; readonly messages: readonly Message[] }[] {
  const directory = new CheckpointDirectory(dshHome, session.header.id)
  if (!directory.exists()) return []
  const { conversation } = rewoundTurns(directory.rewinds())
  const rows = turnRows(session)
  return rows.flatMap((row, index) => {
    if (!conversation.has(row.turn)) return []
    const end = rows[index + 1]?.startSeq ?? Number.POSITIVE_INFINITY
    const messages = session.events.flatMap((event) => {
      const message = event.seq > row.startSeq && event.seq < end ? eventMessage(event) : undefined
      return message === undefined ? [] : [message]
    })
    return [{ turn: row.turn, messages }]
  })
}
