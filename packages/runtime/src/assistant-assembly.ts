/**
 * Assembles a provider's stream into one assistant message: text and reasoning concatenated,
 * tool-call deltas joined by index, usage kept from the last report.
 */
import { randomUUID } from 'node:crypto'
import type { AnswerCut, AssistantMessage, ContentBlock, ModelStreamEvent, Usage } from '@dsh/contracts'
import { deepFreeze } from './message-factory.ts'

/** Ends the text of an answer the person cancelled while it streamed; the model sees it next turn. */
export const interruptedMarker = '[interrupted]'

interface PendingCall {
  id: string
  name: string
  args: string
}

/** Accumulates stream events. */
export class AssistantAssembler {
  #text = ''
  #reasoning = ''
  readonly #calls = new Map<number, PendingCall>()
  #usage: Usage | undefined
  #cut: AnswerCut | undefined

  /** Adds one event; returns the text delta to show, if any. */
  push(event: ModelStreamEvent): void {
    switch (event.type) {
      case 'text':
        this.#text += event.text
        return
      case 'reasoning':
        this.#reasoning += event.text
        return
      case 'tool-call-delta': {
        const call = this.#calls.get(event.index) ?? { id: '', name: '', args: '' }
        if (event.id !== undefined && event.id !== '') call.id = event.id
        if (event.name !== undefined) call.name += event.name
        if (event.argumentsDelta !== undefined) call.args += event.argumentsDelta
        this.#calls.set(event.index, call)
        return
      }
      case 'usage':
        this.#usage = event.usage
        return
      case 'cut':
        this.#cut = event.reason
        return
      case 'retry':
        // A retry announcement carries nothing of the response; the loop records it separately.
        return
      default: {
        const unreachable: never = event
        throw new Error(`unknown stream event ${JSON.stringify(unreachable)}`)
      }
    }
  }

  /** Text so far. */
  get text(): string {
    return this.#text
  }

  /** Why the provider cut the answer short, when it did. */
  get cut(): AnswerCut | undefined {
    return this.#cut
  }

  /** Usage, when reported. */
  get usage(): Usage | undefined {
    return this.#usage
  }

  /**
   * The message of a stream cut off by a cancel: the text so far followed by the
   * {@link interruptedMarker} (reasoning and half-streamed tool calls are dropped: they never ran).
   */
  interrupted(): AssistantMessage {
    const text = this.#text === '' ? interruptedMarker : `${this.#text}\n\n${interruptedMarker}`
    return deepFreeze({ id: randomUUID(), role: 'assistant', content: [{ type: 'text', text }], source: { kind: 'model' } })
  }

  /**
   * The finished message. Calls without an id get a generated one; a call whose id an earlier call
   * of the same answer already has gets that id with `_2`, `_3`, … (the first unused), before it is
   * stored, so every tool result answers exactly one call and the next request is valid (issue 22 F6).
   */
  finish(): AssistantMessage {
    const content: ContentBlock[] = []
    if (this.#reasoning !== '') content.push({ type: 'reasoning', text: this.#reasoning })
    if (this.#text !== '') content.push({ type: 'text', text: this.#text })
    const ordered = [...this.#calls.entries()].toSorted(([a], [b]) => a - b)
    const used = new Set(ordered.map(([, call]) => call.id))
    const seen = new Set<string>()
    for (const [, call] of ordered) {
      let callId = call.id === '' ? `call_${randomUUID().slice(0, 8)}` : call.id
      if (seen.has(callId)) callId = uniqueId(callId, used)
      seen.add(callId)
      used.add(callId)
      content.push({ type: 'tool-call', callId, name: call.name, arguments: call.args })
    }
    return deepFreeze({ id: randomUUID(), role: 'assistant', content, source: { kind: 'model' } })
  }
}

/** `id_2`, `id_3`, … : the first not in `used`. */
function uniqueId(id: string, used: ReadonlySet<string>): string {
  for (let n = 2; ; n++) if (!used.has(`${id}_${n}`)) return `${id}_${n}`
}
