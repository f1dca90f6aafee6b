/**
 * Shared construction of the OpenAI-compatible chat request body, so every provider (and the
 * request log) sees exactly the same messages and tools.
 */
import type { ChatRequestBody, Message, WireMessage, WireTool } from '@dsh/contracts'
import { messageText } from './message-factory.ts'
import type { WireMemo } from './wire-memo.ts'

/** Inputs of a request body. */
export interface RequestBodyInput {
  /** Model name. */
  readonly model: string
  /** Assembled system prompt. */
  readonly system: string
  /** Derived history. */
  readonly messages: readonly Message[]
  /** Offered tools. */
  readonly tools: readonly WireTool[]
  /** Whether assistant messages carry their reasoning back (see `ModelProvider.reasoningEcho`); absent: never. */
  readonly reasoningEcho?: 'with-tools' | undefined
  /** Memo of wire messages shared by the requests of one agent; absent: every message is converted. */
  readonly memo?: WireMemo | undefined
}

function toWire(message: Message, echoReasoning: boolean): WireMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: messageText(message) }
    case 'tool':
      return { role: 'tool', tool_call_id: message.callId, content: messageText(message) }
    case 'assistant': {
      const text = messageText(message)
      const calls = message.content.flatMap((block) =>
        block.type === 'tool-call' ? [{ id: block.callId, type: 'function' as const, function: { name: block.name, arguments: block.arguments } }] : [],
      )
      const reasoning = message.content.flatMap((block) => (block.type === 'reasoning' ? [block.text] : [])).join('')
      return {
        role: 'assistant',
        content: text === '' && calls.length > 0 ? null : text,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
        // The exact text received (its pieces joined), or "" when none came: DeepSeek refuses a
        // request with tools in thinking mode where any assistant message lacks the field.
        ...(echoReasoning ? { reasoning_content: reasoning } : {}),
      }
    }
    default: {
      const unreachable: never = message
      throw new Error(`unknown message role ${JSON.stringify(unreachable)}`)
    }
  }
}

/**
 * Whether this request's assistant messages carry their reasoning back: under `with-tools`, all of
 * them when the request offers tools (DeepSeek's current rule), none otherwise.
 */
function echoesReasoning(input: RequestBodyInput): boolean {
  return input.reasoningEcho === 'with-tools' && input.tools.length > 0
}

/** Length of `,"tools":` between the messages and the tools of a serialised body. */
const TOOLS_KEY_LENGTH = ',"tools":'.length

/**
 * `JSON.stringify(buildChatRequestBody(input)).length`, without building the body: the system
 * message is serialised, every other part is measured once through the memo.
 */
export function requestJsonLength(input: RequestBodyInput & { readonly memo: WireMemo }): number {
  const echo = echoesReasoning(input)
  const { memo } = input
  // `{"model":…,"messages":[]}`, the system message, and one comma before each later message.
  let length = JSON.stringify({ model: input.model, messages: [] }).length + JSON.stringify({ role: 'system', content: input.system }).length + input.messages.length
  // Index loops: they run over the whole history at every step, mostly before V8 optimises them.
  const { messages } = input
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]
    if (message !== undefined) length += memo.measure(memo.wire(message, echo, toWire))
  }
  return input.tools.length > 0 ? length + TOOLS_KEY_LENGTH + memo.measure(input.tools) : length
}

/** Builds the request body. */
export function buildChatRequestBody(input: RequestBodyInput): ChatRequestBody {
  const echo = echoesReasoning(input)
  const { memo } = input
  const messages: WireMessage[] = [{ role: 'system', content: input.system }]
  for (let index = 0; index < input.messages.length; index++) {
    const message = input.messages[index]
    if (message !== undefined) messages.push(memo === undefined ? toWire(message, echo) : memo.wire(message, echo, toWire))
  }
  return { model: input.model, messages, ...(input.tools.length > 0 ? { tools: input.tools } : {}) }
}
