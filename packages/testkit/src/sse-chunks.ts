/**
 * Builders of chat-completions stream chunks in the shapes DeepSeek and OpenAI-compatible servers
 * send, for the loopback server in `sse-server.ts`.
 */

/** A chunk with one choice-0 delta. */
export function deltaChunk(delta: Record<string, unknown>, finishReason: string | null = null): object {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'deepseek-v4-flash',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  }
}

/** Answer text. */
export const text = (content: string): object => deltaChunk({ content })
/** DeepSeek reasoning (`reasoning_content`, with `content: null`). */
export const reasoning = (content: string): object => deltaChunk({ content: null, reasoning_content: content })
/** The closing chunk with a finish reason and an empty delta. */
export const finish = (reason = 'stop'): object => deltaChunk({}, reason)

/** One tool-call piece. */
export function toolPiece(index: number, piece: { id?: string; name?: string; args?: string }): object {
  const fn: Record<string, string> = {}
  if (piece.name !== undefined) fn.name = piece.name
  if (piece.args !== undefined) fn.arguments = piece.args
  const call: Record<string, unknown> = { index, function: fn }
  if (piece.id !== undefined) Object.assign(call, { id: piece.id, type: 'function' })
  return deltaChunk({ tool_calls: [call] })
}

/** The trailing usage chunk (empty `choices`), as sent with `stream_options.include_usage`. */
export function usage(fields: Record<string, unknown>): object {
  return { id: 'chatcmpl-usage', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'deepseek-v4-flash', choices: [], usage: fields }
}

