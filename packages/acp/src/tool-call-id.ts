/**
 * ACP tool call ids. Provider call ids need not be unique across a session (a scripted model
 * numbers them per response), and an editor keys its tool cards by id, so the id sent is
 * `<turn>.<step>/<provider call id>`: the same live and when a loaded session is replayed.
 */

/** The ACP id of call `callId` made in `turn`, `step`. */
export function toolCallId(turn: number, step: number, callId: string): string {
  return `${turn}.${step}/${callId}`
}
