/**
 * Renders a chat request the way the imitation's cache model tokenises it: tools first, then the
 * system message and the history, each part in a fixed template. Past `reasoning_content` is part
 * of the prompt only in thinking mode when the request carries tools (DeepSeek ignores it otherwise). Tool-call
 * `arguments` are rendered exactly as sent, so a client that re-serialises them departs here.
 * One "token" is four UTF-8 bytes, rounded up.
 */

/** Tokens of a rendered text. */
export function tokensOf(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4)
}

/** Tokens of a prefix of `text` (rounded down, as a cached unit is never partial). */
export function prefixTokensOf(text: string): number {
  return Math.floor(Buffer.byteLength(text, 'utf8') / 4)
}

/** A JSON object's fields (an empty record for anything else). */
export function asRecord(value: unknown): Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {}
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- a parsed JSON object: every field is unknown and read with checks
  return value as Record<string, unknown>
}
const asString = (value: unknown): string => (typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value))

/** True when the body offers tools. */
export function carriesTools(body: Readonly<Record<string, unknown>>): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0
}

/** Thinking is on unless the body says `thinking: {type: "disabled"}` (on by default). */
export function thinkingOn(body: Readonly<Record<string, unknown>>): boolean {
  const thinking = body.thinking
  return !(typeof thinking === 'object' && thinking !== null && 'type' in thinking && thinking.type === 'disabled')
}

/** One assistant message in the template; `withReasoning` adds its reasoning. */
export function renderAssistant(message: Readonly<Record<string, unknown>>, withReasoning: boolean): string {
  const reasoning = withReasoning ? `<think>${asString(message.reasoning_content)}</think>` : ''
  const calls = Array.isArray(message.tool_calls)
    ? message.tool_calls.map((call) => {
        const record = asRecord(call)
        const fn = asRecord(record.function)
        return `<call id=${asString(record.id)} name=${asString(fn.name)}>${asString(fn.arguments)}</call>`
      })
    : []
  return `<|assistant|>${reasoning}${asString(message.content)}${calls.join('')}<|end|>`
}

/** The whole prompt of a request. */
export function renderPrompt(body: Readonly<Record<string, unknown>>): string {
  const withTools = carriesTools(body)
  // Past reasoning is context only in thinking mode with tools; otherwise the API ignores it.
  const withReasoning = withTools && thinkingOn(body)
  const parts = [withTools ? `<|tools|>${JSON.stringify(body.tools)}<|end|>` : '']
  const messages = Array.isArray(body.messages) ? body.messages : []
  for (const raw of messages) {
    const message = asRecord(raw)
    switch (message.role) {
      case 'assistant':
        parts.push(renderAssistant(message, withReasoning))
        break
      case 'tool':
        parts.push(`<|tool id=${asString(message.tool_call_id)}|>${asString(message.content)}<|end|>`)
        break
      default:
        parts.push(`<|${asString(message.role)}|>${asString(message.content)}<|end|>`)
    }
  }
  return parts.join('')
}
