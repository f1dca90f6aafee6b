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
  /** Which assistant messages carry their reasoning back (see `ModelProvider.reasoningEcho`); absent: none. */
  readonly reasoningEcho?: 'tool-segments' | undefined
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
        ...(echoReasoning && reasoning !== '' ? { reasoning_content: reasoning } : {}),
      }
    }
    default: {
      const unreachable: never = message
      throw new Error(`unknown message role ${JSON.stringify(unreachable)}`)
    }
  }
}

/**
 * Indexes of assistant messages whose reasoning goes back under `tool-segments`: every assistant
 * message of a segment between two user-role messages in which some assistant called a tool.
 */
function toolSegmentAssistants(messages: readonly Message[]): Set<number> {
  const chosen = new Set<number>()
  let segment: number[] = []
  let calledTool = false
  const close = (): void => {
    if (calledTool) for (const index of segment) chosen.add(index)
    segment = []
    calledTool = false
  }
  messages.forEach((message, index) => {
    if (message.role === 'user') close()
    else if (message.role === 'assistant') {
      segment.push(index)
      if (message.content.some((block) => block.type === 'tool-call')) calledTool = true
    }
  })
  close()
  return chosen
}

/** Length of `,"tools":` between the messages and the tools of a serialised body. */
const TOOLS_KEY_LENGTH = ',"tools":'.length

/**
 * `JSON.stringify(buildChatRequestBody(input)).length`, without building the body: the system
 * message is serialised, every other part is measured once through the memo.
 */
export function requestJsonLength(input: RequestBodyInput & { readonly memo: WireMemo }): number {
  const echo = input.reasoningEcho === 'tool-segments' ? toolSegmentAssistants(input.messages) : new Set<number>()
  const { memo } = input
  // `{"model":…,"messages":[]}`, the system message, and one comma before each later message.
  let length = JSON.stringify({ model: input.model, messages: [] }).length + JSON.stringify({ role: 'system', content: input.system }).length + input.messages.length
  // Index loops: they run over the whole history at every step, mostly before V8 optimises them.
  const { messages } = input
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]
    if (message !== undefined) length += memo.measure(memo.wire(message, echo.has(index), toWire))
  }
  return input.tools.length > 0 ? length + TOOLS_KEY_LENGTH + memo.measure(input.tools) : length
}

/** Builds the request body. */
export function buildChatRequestBody(input: RequestBodyInput): ChatRequestBody {
  const echo = input.reasoningEcho === 'tool-segments' ? toolSegmentAssistants(input.messages) : new Set<number>()
  const { memo } = input
  const messages: WireMessage[] = [{ role: 'system', content: input.system }]
  for (let index = 0; index < input.messages.length; index++) {
    const message = input.messages[index]
    if (message !== undefined) messages.push(memo === undefined ? toWire(message, echo.has(index)) : memo.wire(message, echo.has(index), toWire))
  }
  return { model: input.model, messages, ...(input.tools.length > 0 ? { tools: input.tools } : {}) }
}
