/**
 * The chunks of one streamed DeepSeek answer, in the shapes of captured V4 traffic (research
 * notes §3.1): the same `id` and `created` on every chunk, a 32-hex `system_fingerprint`,
 * `usage: null` until the final chunk, which carries the `finish_reason` and the usage (there is
 * no separate usage chunk). Thinking mode opens with `reasoning_content: ""` and streams reasoning
 * with `content: null`, then content with `reasoning_content: null`; tool calls come as a first
 * fragment with id, type, name and empty arguments, then argument pieces.
 */
import { createHash } from 'node:crypto'
import type { DeepSeekAnswer, DeepSeekCacheReport, DeepSeekFinishReason } from './deepseek-types.ts'
import { tokensOf } from './prompt-rendering.ts'

/** Inputs of {@link answerChunks}. */
export interface AnswerChunksInput {
  readonly answer: DeepSeekAnswer
  readonly model: string
  /** Thinking mode on for this request. */
  readonly thinking: boolean
  /** Seed for the response id and call ids (the request number). */
  readonly seed: number
  readonly cache: DeepSeekCacheReport
}

/** The streamed answer: its chunks and the message a client would replay. */
export interface AnswerChunks {
  /** Every chunk, the final one (finish reason and usage) last. */
  readonly chunks: readonly object[]
  /** How many leading chunks carry half the reasoning (where `stall` / `reset` cut). */
  readonly cutAfter: number
  /** The assistant message as a client should send it back (`content`, `reasoning_content`, `tool_calls`). */
  readonly message: Readonly<Record<string, unknown>>
  /** The finish reason of the final chunk. */
  readonly finishReason: DeepSeekFinishReason
}

const hex = (seed: string): string => createHash('sha256').update(seed).digest('hex')
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** `call_00_` and 24 alphanumerics, deterministic per request and index. */
function callId(seed: number, index: number): string {
  const digest = createHash('sha256').update(`call ${seed} ${index}`).digest()
  let tail = ''
  for (let i = 0; i < 24; i++) tail += ALNUM[(digest[i] ?? 0) % ALNUM.length]
  return `call_${String(index).padStart(2, '0')}_${tail}`
}

/** Small pieces: words with their trailing space. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? []
}

/** Pieces of at most three characters, as DeepSeek cuts arguments. */
function shreds(text: string): string[] {
  const pieces: string[] = []
  for (let index = 0; index < text.length; index += 3) pieces.push(text.slice(index, index + 3))
  return pieces
}

/** Builds the chunks of `answer`. */
export function answerChunks(input: AnswerChunksInput): AnswerChunks {
  const { answer, thinking } = input
  const id = hex(`response ${input.seed}`).slice(0, 32).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-')
  const fingerprint = hex('fingerprint').slice(0, 32)
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, usage: object | null = null): object => ({
    id,
    object: 'chat.completion.chunk',
    created: 1_764_547_200,
    model: input.model,
    system_fingerprint: fingerprint,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage,
  })
  const calls = answer.toolCalls ?? []
  const finishReason: DeepSeekFinishReason = answer.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop')
  const cutShort = finishReason === 'insufficient_system_resource'
  const fullReasoning = thinking ? (answer.reasoning ?? 'The user asked something; I will answer it.') : ''
  const reasoningPieces = words(fullReasoning)
  const half = Math.ceil(reasoningPieces.length / 2)
  const reasoning = cutShort ? reasoningPieces.slice(0, half).join('') : fullReasoning
  const text = cutShort ? '' : (answer.text ?? '')
  const chunks: object[] = [chunk(thinking ? { role: 'assistant', content: null, reasoning_content: '' } : { role: 'assistant', content: '' })]
  for (const piece of cutShort ? reasoningPieces.slice(0, half) : reasoningPieces) chunks.push(chunk({ content: null, reasoning_content: piece }))
  const cutAfter = answer.cutAfterTextPieces === undefined ? 1 + half : 1 + reasoningPieces.length + answer.cutAfterTextPieces
  for (const piece of answer.bigEvent === undefined ? words(text) : text === '' ? [] : [text]) chunks.push(chunk(thinking ? { content: piece, reasoning_content: null } : { content: piece }))
  const wireCalls = cutShort
    ? []
    : calls.map((call, index) => ({ id: callId(input.seed, answer.duplicateCallIds === true ? 0 : index), type: 'function', function: { name: call.name, arguments: call.arguments } }))
  wireCalls.forEach((call, index) => {
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }))
    for (const piece of shreds(call.function.arguments)) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }))
  })
  const reasoningTokens = tokensOf(reasoning)
  const completionTokens = reasoningTokens + tokensOf(text) + wireCalls.reduce((sum, call) => sum + tokensOf(call.function.name + call.function.arguments), 0)
  const usage = {
    prompt_tokens: input.cache.promptTokens,
    completion_tokens: completionTokens,
    total_tokens: input.cache.promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: input.cache.hitTokens },
    ...(thinking ? { completion_tokens_details: { reasoning_tokens: reasoningTokens } } : {}),
    prompt_cache_hit_tokens: input.cache.hitTokens,
    prompt_cache_miss_tokens: input.cache.missTokens,
  }
  chunks.push(chunk(thinking ? { content: '', reasoning_content: null } : { content: '' }, finishReason, usage))
  const message = {
    role: 'assistant',
    content: text,
    ...(thinking ? { reasoning_content: reasoning } : {}),
    ...(wireCalls.length > 0 ? { tool_calls: wireCalls } : {}),
  }
  return { chunks, cutAfter, message, finishReason }
}
