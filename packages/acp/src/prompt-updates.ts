/**
 * A prompt's progress as ACP `session/update`s: answer text as `agent_message_chunk`, reasoning as
 * `agent_thought_chunk`, each tool call as a `tool_call` (title, kind, absolute locations, status
 * `pending`), `in_progress` once it produces output, and, when it finished, a `tool_call_update` with status `completed` or `failed`, the
 * result text the model got (cut to {@link maxResultChars}), a `diff` for a successful edit or
 * write, and the paths it touched as locations. Every model attempt's chunks carry their own
 * `messageId` (one for the answer, one for the reasoning): a retried attempt starts new messages,
 * so the editor can tell the void partial answer (closed by a line saying so) from the final one.
 */
import { randomUUID } from 'node:crypto'
import type { SessionUpdate, ToolCallContent, ToolCallLocation } from '@agentclientprotocol/sdk'
import type { AgentProgress } from '@dsh/runtime'
import type { ToolFinalOutcome } from '@dsh/contracts'
import { captureBefore, diffContent, type EditBefore } from './edit-diff.ts'
import { planOfOutcome } from './plan-update.ts'
import type { AcpSession } from './session-registry.ts'
import { toolCallId } from './tool-call-id.ts'
import { argumentsOf, presentTool } from './tool-presentation.ts'

/** Result text longer than this is cut (the model got all of it; the editor shows the start). */
export const maxResultChars = 20_000

/** The result text shown in the editor. */
export function resultText(content: string): string {
  return content.length <= maxResultChars ? content : `${content.slice(0, maxResultChars)}\n… (${content.length - maxResultChars} more characters)`
}

/** The content of a finished call: the diff of a successful edit, then the result text. */
export function resultContent(diffs: readonly ToolCallContent[], text: string): ToolCallContent[] {
  return [...diffs, { type: 'content', content: { type: 'text', text: resultText(text) } }]
}

function touchedLocations(outcome: ToolFinalOutcome, session: AcpSession): ToolCallLocation[] {
  return outcome.touched.map((touched) => ({ path: session.spelling.show(touched.path) }))
}

/** Turns one prompt's progress events into updates, in order. */
export class PromptUpdates {
  readonly #session: AcpSession
  readonly #send: (update: SessionUpdate) => void
  readonly #before = new Map<string, EditBefore>()
  readonly #arguments = new Map<string, string>()
  /** Calls that reported output, so already `in_progress`. */
  readonly #producing = new Set<string>()
  #turn = 0
  #step = 0
  /** The `messageId`s of the running attempt's answer and reasoning. */
  #ids = { answer: randomUUID(), thought: randomUUID() }

  constructor(session: AcpSession, send: (update: SessionUpdate) => void) {
    this.#session = session
    this.#send = send
  }

  /** The ACP id of a call of the current step. */
  toolCallId(callId: string): string {
    return toolCallId(this.#turn, this.#step, callId)
  }

  /** Sends what `event` shows. */
  onProgress(event: AgentProgress): void {
    switch (event.type) {
      case 'step-start':
        this.#turn = event.turn
        this.#step = event.step
        this.#ids = { answer: randomUUID(), thought: randomUUID() }
        return
      case 'text':
        if (event.text !== '') this.#send({ sessionUpdate: 'agent_message_chunk', messageId: this.#ids.answer, content: { type: 'text', text: event.text } })
        return
      case 'reasoning':
        if (event.text !== '') this.#send({ sessionUpdate: 'agent_thought_chunk', messageId: this.#ids.thought, content: { type: 'text', text: event.text } })
        return
      case 'tool-start': {
        const session = this.#session
        const before = captureBefore(event.name, event.arguments, session.cwd, session.directories.map((directory) => directory.canonical))
        if (before !== undefined) this.#before.set(event.callId, before)
        this.#arguments.set(event.callId, event.arguments)
        const shown = presentTool(event.name, event.arguments, session.spelling)
        this.#send({ sessionUpdate: 'tool_call', toolCallId: this.toolCallId(event.callId), title: shown.title, kind: shown.kind, status: 'pending', locations: shown.locations, rawInput: argumentsOf(event.arguments) })
        return
      }
      case 'tool-output':
        // The first output says the call runs (it was approved); the text itself comes with the result.
        if (this.#producing.has(event.callId)) return
        this.#producing.add(event.callId)
        this.#send({ sessionUpdate: 'tool_call_update', toolCallId: this.toolCallId(event.callId), status: 'in_progress' })
        return
      case 'tool-end': {
        this.#producing.delete(event.callId)
        const ok = !event.outcome.isError
        const diffs = ok ? diffContent(event.name, this.#arguments.get(event.callId) ?? '{}', this.#before.get(event.callId), this.#session.spelling) : []
        const touched = touchedLocations(event.outcome, this.#session)
        this.#send({ sessionUpdate: 'tool_call_update', toolCallId: this.toolCallId(event.callId), status: ok ? 'completed' : 'failed', content: resultContent(diffs, event.outcome.content), ...(touched.length === 0 ? {} : { locations: touched }) })
        const plan = planOfOutcome(event.name, event.outcome)
        if (plan !== undefined) this.#send(plan)
        this.#before.delete(event.callId)
        this.#arguments.delete(event.callId)
        return
      }
      case 'retry':
        // Chunks already sent cannot be withdrawn: the void message is closed by a line saying so,
        // and the next attempt streams under new message ids.
        if (!event.discarded) return
        this.#send({ sessionUpdate: 'agent_message_chunk', messageId: this.#ids.answer, content: { type: 'text', text: `\n\n[dsh: the answer broke off (${event.detail}); retrying, attempt ${event.attempt} of ${event.maxAttempts}: the partial answer above is discarded]\n\n` } })
        this.#ids = { answer: randomUUID(), thought: randomUUID() }
        return
      case 'attached':
        // The editor shows the prompt with its mentions (resource links); nothing more to say.
        return
      case 'compacted':
        // As session/load replays a checkpoint: a thought of its own, which editors fold away.
        this.#send({ sessionUpdate: 'agent_thought_chunk', messageId: randomUUID(), content: { type: 'text', text: event.summary } })
        return
      case 'turn-end':
        return
      default: {
        const unreachable: never = event
        throw new Error(`unknown progress event ${JSON.stringify(unreachable)}`)
      }
    }
  }
}
