/**
 * Repair of a session whose process stopped mid-turn (a crash, `kill -9`): every tool call the
 * model made that has no result gets an error result saying the call was interrupted, and the open
 * step and turn are closed. Without this, every later request would carry an assistant tool call
 * without its tool message, which OpenAI-compatible APIs reject. Runs when a loop instance starts,
 * before anything new is appended; a cleanly ended session is left untouched.
 */
import { randomUUID } from 'node:crypto'
import type { ToolResultMessage } from '@dsh/contracts'
import { dataOf } from './event-data.ts'
import { deepFreeze } from './message-factory.ts'
import type { Session } from './session.ts'

/** Text the model sees for a call that never finished. */
export function interruptedCallText(name: string): string {
  return `The ${name} call was interrupted: dsh stopped before it finished, so its effects are unknown. Check the current state before relying on it or retrying.`
}

/** Closes an interrupted turn; returns the number of tool results it added. */
export function closeInterruptedTurn(session: Session): number {
  let openTurn: number | undefined
  let openStep: { turn: number; step: number } | undefined
  for (const event of session.events) {
    const turnStart = dataOf(event, 'turn/start')
    if (turnStart !== undefined) openTurn = turnStart.turn
    if (dataOf(event, 'turn/end') !== undefined) openTurn = undefined
    const stepStart = dataOf(event, 'step/start')
    if (stepStart !== undefined) openStep = stepStart
    if (dataOf(event, 'step/end') !== undefined) openStep = undefined
  }
  if (openTurn === undefined) return 0
  const answered = new Set<string>()
  const calls: { callId: string; name: string }[] = []
  for (const seq of session.surface) {
    const event = session.eventBySeq(seq)
    if (event === undefined) continue
    const result = dataOf(event, 'tool/result')
    if (result !== undefined) answered.add(result.message.callId)
    for (const block of dataOf(event, 'assistant/message')?.message.content ?? []) {
      if (block.type === 'tool-call') calls.push({ callId: block.callId, name: block.name })
    }
  }
  const missing = calls.filter((call) => !answered.has(call.callId))
  const position = openStep ?? { turn: openTurn, step: 0 }
  for (const call of missing) {
    const message: ToolResultMessage = deepFreeze({
      id: randomUUID(),
      role: 'tool',
      callId: call.callId,
      toolName: call.name,
      isError: true,
      content: [{ type: 'text', text: interruptedCallText(call.name) }],
      source: { kind: 'tool' },
    })
    session.append('tool/result', { turn: position.turn, step: position.step, message }, { surfaceOp: 'append' })
  }
  if (openStep !== undefined) session.append('step/end', { ...openStep, aborted: true })
  session.append('turn/end', { turn: openTurn, reason: 'error', error: 'interrupted: dsh stopped during this turn' })
  session.sync()
  return missing.length
}
