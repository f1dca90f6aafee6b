/**
 * Every tool call the model made must have a result, or each later request is invalid for
 * OpenAI-compatible APIs. This module answers calls left without one — by a step that ended early
 * (an error outside the pipeline) or by a process that stopped mid-turn (a crash, `kill -9`) — and,
 * for the latter, closes the open step and turn. It runs at the end of every step and when a loop
 * instance starts, before anything new is appended.
 */
import { randomUUID } from 'node:crypto'
import type { ToolResultMessage } from '@dsh/contracts'
import { dataOf } from './event-data.ts'
import { deepFreeze } from './message-factory.ts'
import type { Session } from './session.ts'

/** Text the model sees for a call that started but never finished. */
export function interruptedCallText(name: string): string {
  return `The ${name} call was interrupted: dsh stopped before it finished, so its effects are unknown. Check the current state before relying on it or retrying.`
}

/** Text the model sees for a call that never started. */
export function notRunCallText(name: string): string {
  return `The ${name} call did not run: the step ended before it started. Call it again if you still need it.`
}

/** Appends an error result for every visible tool call without one; returns how many. */
export function answerUnansweredCalls(session: Session, position: { readonly turn: number; readonly step: number }): number {
  const answered = new Set<string>()
  const started = new Set<string>()
  const calls: { callId: string; name: string }[] = []
  for (const event of session.events) {
    const call = dataOf(event, 'tool/call')
    if (call !== undefined) started.add(call.callId)
  }
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
  for (const call of missing) {
    const message: ToolResultMessage = deepFreeze({
      id: randomUUID(),
      role: 'tool',
      callId: call.callId,
      toolName: call.name,
      isError: true,
      content: [{ type: 'text', text: started.has(call.callId) ? interruptedCallText(call.name) : notRunCallText(call.name) }],
      source: { kind: 'tool' },
    })
    session.append('tool/result', { ...position, message }, { surfaceOp: 'append' })
  }
  return missing.length
}

/** Answers dangling calls and closes a turn left open by a stopped process; returns the calls answered. */
export function closeInterruptedTurn(session: Session): number {
  let openTurn: number | undefined
  let lastTurn = 0
  let openStep: { turn: number; step: number } | undefined
  for (const event of session.events) {
    const turnStart = dataOf(event, 'turn/start')
    if (turnStart !== undefined) {
      openTurn = turnStart.turn
      lastTurn = turnStart.turn
    }
    if (dataOf(event, 'turn/end') !== undefined) openTurn = undefined
    const stepStart = dataOf(event, 'step/start')
    if (stepStart !== undefined) openStep = stepStart
    if (dataOf(event, 'step/end') !== undefined) openStep = undefined
  }
  const answered = answerUnansweredCalls(session, openStep ?? { turn: openTurn ?? lastTurn, step: 0 })
  if (openTurn === undefined) return answered
  if (openStep !== undefined) session.append('step/end', { ...openStep, aborted: true })
  session.append('turn/end', { turn: openTurn, reason: 'error', error: 'interrupted: dsh stopped during this turn' })
  session.sync()
  return answered
}
