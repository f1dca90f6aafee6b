/**
 * DeepSeek's error envelope `{"error":{"message","type","param":null,"code"}}` with the texts seen
 * in the wild (research notes §2.2, §3.5): the reasoning rule, an unknown model, tool_choice in
 * thinking mode, the context length, the key, the balance, concurrency and server failures.
 */

/** An error answer: status and JSON body. */
export interface DeepSeekError {
  readonly status: number
  readonly body: { readonly error: { readonly message: string; readonly type: string; readonly param: null; readonly code: string } }
}

function envelope(status: number, message: string, type = 'invalid_request_error'): DeepSeekError {
  return { status, body: { error: { message, type, param: null, code: 'invalid_request_error' } } }
}

/** The V4 refusal of a thinking-mode request with tools whose history lacks `reasoning_content`. */
export const reasoningNotPassedBack = (): DeepSeekError => envelope(400, 'The `reasoning_content` in the thinking mode must be passed back to the API.')
/** An unknown model name. */
export const modelNotExist = (): DeepSeekError => envelope(400, 'Model Not Exist')
/** `tool_choice` `required` or a named function in thinking mode. */
export const toolChoiceRefused = (model: string): DeepSeekError => envelope(400, `${model} does not support this tool_choice`)
/** A prompt plus completion larger than the context window. */
export function contextTooLong(window: number, messages: number, completion: number): DeepSeekError {
  return envelope(
    400,
    `This model's maximum context length is ${window} tokens. However, you requested ${messages + completion} tokens (${messages} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`,
  )
}
/** A missing or wrong key (`****` and its last four characters). */
export const authenticationFails = (key: string): DeepSeekError => envelope(401, `Authentication Fails, Your api key: ****${key.slice(-4)} is invalid`, 'authentication_error')
/** No balance left. */
export const insufficientBalance = (): DeepSeekError => envelope(402, 'Insufficient Balance', 'unknown_error')
/** Too many concurrent requests (DeepSeek sends no rate-limit headers). */
export const concurrencyExceeded = (): DeepSeekError =>
  envelope(429, 'Your current concurrency is 40, which exceeds your concurrency limit of 39 based on your remaining balance. Please top up your balance to restore your concurrency.', 'rate_limit_error')
/** A server failure (no body was ever captured; this text is the imitation's own). */
export const serverFailure = (status: 500 | 503): DeepSeekError => envelope(status, status === 503 ? 'Server overloaded, please try again later' : 'Internal Server Error', 'api_error')
/** Two tool calls (or two tool results) with one id; the imitation's own text, no DeepSeek body was captured. */
export const duplicateToolCall = (id: string): DeepSeekError => envelope(400, `Duplicate value for 'tool_call_id' of ${id} in message[]`)
