/**
 * Shared construction of the OpenAI-compatible chat request body, so every provider (and the
 * request log) sees exactly the same messages and tools.
 */
import type { ChatRequestBody, Message, WireMessage, WireTool } from '@dsh/contracts'
import { messageText } from './message-factory.ts'

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
  /** Send reasoning back on assistant messages (off for DeepSeek; see the provider README). */
  readonly echoReasoning?: boolean
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
        ...(echoReasoning && reasoning !== '' ? { reasoning_content: reasoning } : {}),
      }
    }
    default: {
      const unreachable: never = message
      throw new Error(`unknown message role ${JSON.stringify(unreachable)}`)
    }
  }
}

/** Builds the request body. */
export function buildChatRequestBody(input: RequestBodyInput): ChatRequestBody {
  const messages: WireMessage[] = [{ role: 'system', content: input.system }, ...input.messages.map((message) => toWire(message, input.echoReasoning ?? false))]
  return { model: input.model, messages, ...(input.tools.length > 0 ? { tools: input.tools } : {}) }
}
