/**
 * Chunk mapping: turns chat-completions stream chunks into contract `ModelStreamEvent`s.
 *
 * `delta.content` → `text`; DeepSeek's untyped `delta.reasoning_content` (or `delta.reasoning`,
 * as some local servers name it) → `reasoning`; `delta.tool_calls[]` → `tool-call-delta` by
 * `index`. Usage is held back and reported once by `finish()`, because some servers repeat it
 * on every chunk. One mapper per attempt: it remembers per-index ids and names so a server that
 * repeats them on every piece does not make the loop concatenate `call_1call_1`.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ModelStreamEvent, Usage } from '@dsh/contracts'

/** DeepSeek and local-server fields the SDK types do not declare. */
interface UntypedDeltaFields {
  readonly reasoning_content?: unknown
  readonly reasoning?: unknown
}

/** DeepSeek's usage extension. */
interface UntypedUsageFields {
  readonly prompt_cache_hit_tokens?: unknown
  readonly prompt_cache_miss_tokens?: unknown
}

type ToolCallDeltaEvent = Extract<ModelStreamEvent, { type: 'tool-call-delta' }>

/** Stateful mapper for one response stream. */
export class ChunkMapper {
  readonly #ids = new Map<number, string>()
  readonly #names = new Map<number, string>()
  #usage: Usage | undefined
  #finishReason: string | undefined

  /** The first `finish_reason` seen, if any; absent means the response never completed. */
  get finishReason(): string | undefined {
    return this.#finishReason
  }

  /** Events carried by one chunk, in delta order: reasoning, text, tool calls. */
  map(chunk: ChatCompletionChunk): ModelStreamEvent[] {
    const events: ModelStreamEvent[] = []
    if (chunk.usage) this.#usage = toUsage(chunk.usage)
    // n is never set, so only choice 0 exists; other indexes would interleave two answers.
    const choice = chunk.choices?.find((candidate) => candidate.index === 0) ?? chunk.choices?.[0]
    if (!choice) return events
    if (choice.finish_reason) this.#finishReason ??= choice.finish_reason
    const delta = choice.delta as (typeof choice.delta & UntypedDeltaFields) | undefined
    if (!delta) return events
    const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning
    if (typeof reasoning === 'string' && reasoning !== '') events.push({ type: 'reasoning', text: reasoning })
    if (typeof delta.content === 'string' && delta.content !== '') events.push({ type: 'text', text: delta.content })
    for (const call of delta.tool_calls ?? []) {
      const event = this.#toolCallDelta(call)
      if (event) events.push(event)
    }
    return events
  }

  /** Events to emit once the stream has ended normally (the usage, if reported). */
  finish(): ModelStreamEvent[] {
    return this.#usage ? [{ type: 'usage', usage: this.#usage }] : []
  }

  #toolCallDelta(call: ChatCompletionChunk.Choice.Delta.ToolCall): ToolCallDeltaEvent | undefined {
    const index = call.index
    let event: { type: 'tool-call-delta'; index: number; id?: string; name?: string; argumentsDelta?: string } | undefined
    const piece = (): NonNullable<typeof event> => (event ??= { type: 'tool-call-delta', index })
    if (typeof call.id === 'string' && call.id !== '' && !this.#ids.has(index)) {
      this.#ids.set(index, call.id)
      piece().id = call.id
    }
    const name = call.function?.name
    if (typeof name === 'string' && name !== '' && this.#names.get(index) !== name) {
      this.#names.set(index, (this.#names.get(index) ?? '') + name)
      piece().name = name
    }
    const args = call.function?.arguments
    if (typeof args === 'string' && args !== '') piece().argumentsDelta = args
    return event
  }
}

function toUsage(usage: NonNullable<ChatCompletionChunk['usage']>): Usage {
  const cacheHit = (usage as typeof usage & UntypedUsageFields).prompt_cache_hit_tokens
  const cached = typeof cacheHit === 'number' ? cacheHit : usage.prompt_tokens_details?.cached_tokens
  const miss = (usage as typeof usage & UntypedUsageFields).prompt_cache_miss_tokens
  const reasoning = usage.completion_tokens_details?.reasoning_tokens
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    ...(typeof cached === 'number' ? { cacheHitTokens: cached } : {}),
    ...(typeof miss === 'number' ? { cacheMissTokens: miss } : {}),
    ...(typeof reasoning === 'number' ? { reasoningTokens: reasoning } : {}),
  }
}
