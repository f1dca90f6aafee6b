/**
 * Streaming: chunks from a real loopback server come out as contract events (text, reasoning,
 * tool-call deltas, usage), and the request on the wire is the runtime's body plus stream flags.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startSseServer, type SseServer } from '@dsh/testkit'
import { assembleToolCalls, collect, finish, joinText, reasoning, request, testProvider, text, toolPiece, usage } from './helpers.ts'

let server: SseServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('stream', () => {
  it('streams plain text as text events in order', async () => {
    server = await startSseServer([{ kind: 'sse', chunks: [text('Hel'), text('lo, '), text('world'), finish()] }])
    const { provider } = testProvider(server.baseUrl)
    const events = await collect(provider)
    expect(events).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo, ' },
      { type: 'text', text: 'world' },
    ])
  })

  it('emits tool-call deltas by index that assemble into two complete calls', async () => {
    const chunks = [
      toolPiece(0, { id: 'call_a', name: 'read', args: '' }),
      toolPiece(0, { args: '{"file_' }),
      toolPiece(0, { args: 'path":"a.txt"}' }),
      toolPiece(1, { id: 'call_b', name: 'ls', args: '{"di' }),
      toolPiece(1, { args: 'r":"."}' }),
      finish('tool_calls'),
    ]
    server = await startSseServer([{ kind: 'sse', chunks }])
    const events = await collect(testProvider(server.baseUrl).provider)
    expect(events.every((event) => event.type === 'tool-call-delta')).toBe(true)
    expect(events).toHaveLength(5)
    expect(assembleToolCalls(events)).toEqual(['call_a read {"file_path":"a.txt"}', 'call_b ls {"dir":"."}'])
  })

  it('does not repeat an id or name a server resends on every piece', async () => {
    const chunks = [
      toolPiece(0, { id: 'call_a', name: 'read', args: '{"file_path":' }),
      toolPiece(0, { id: 'call_a', name: 'read', args: '"a.txt"}' }),
      finish('tool_calls'),
    ]
    server = await startSseServer([{ kind: 'sse', chunks }])
    const events = await collect(testProvider(server.baseUrl).provider)
    expect(assembleToolCalls(events)).toEqual(['call_a read {"file_path":"a.txt"}'])
  })

  it('reports DeepSeek reasoning_content as reasoning, never as text', async () => {
    server = await startSseServer([{ kind: 'sse', chunks: [reasoning('The user wants '), reasoning('files.'), text('Listing.'), finish()] }])
    const events = await collect(testProvider(server.baseUrl).provider)
    expect(joinText(events, 'reasoning')).toBe('The user wants files.')
    expect(joinText(events, 'text')).toBe('Listing.')
    expect(events.map((event) => event.type)).toEqual(['reasoning', 'reasoning', 'text'])
  })

  it('reports usage from the final chunk with prompt_cache_hit_tokens as cacheHitTokens', async () => {
    const final = usage({ prompt_tokens: 120, completion_tokens: 7, total_tokens: 127, prompt_cache_hit_tokens: 96, prompt_cache_miss_tokens: 24 })
    server = await startSseServer([{ kind: 'sse', chunks: [text('ok'), finish(), final] }])
    const events = await collect(testProvider(server.baseUrl).provider)
    expect(events.at(-1)).toEqual({ type: 'usage', usage: { inputTokens: 120, outputTokens: 7, cacheHitTokens: 96, cacheMissTokens: 24 } })
  })

  it('falls back to prompt_tokens_details.cached_tokens and omits cacheHitTokens when neither is sent', async () => {
    const withDetails = usage({ prompt_tokens: 50, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 32 } })
    const plain = usage({ prompt_tokens: 10, completion_tokens: 2 })
    server = await startSseServer([
      { kind: 'sse', chunks: [text('a'), finish(), withDetails] },
      { kind: 'sse', chunks: [text('b'), finish(), plain] },
    ])
    const { provider } = testProvider(server.baseUrl)
    expect((await collect(provider)).at(-1)).toEqual({ type: 'usage', usage: { inputTokens: 50, outputTokens: 3, cacheHitTokens: 32 } })
    expect((await collect(provider)).at(-1)).toEqual({ type: 'usage', usage: { inputTokens: 10, outputTokens: 2 } })
  })

  it('sends exactly request.body plus stream flags, with the key as a bearer token', async () => {
    server = await startSseServer([{ kind: 'sse', chunks: [text('ok'), finish()] }])
    await collect(testProvider(server.baseUrl).provider)
    expect(server.requests).toHaveLength(1)
    const [sent] = server.requests
    expect(sent?.method).toBe('POST')
    expect(sent?.url).toBe('/v1/chat/completions')
    expect(sent?.body).toEqual({ ...request.body, stream: true, stream_options: { include_usage: true } })
    expect(sent?.headers.authorization).toBe('Bearer sk-test-key')
    expect(sent?.headers['openai-organization']).toBeUndefined()
  })

  it('exposes id, model and a context window from the capability table or the override', () => {
    const { provider } = testProvider('http://127.0.0.1:9/v1')
    expect(provider).toMatchObject({ id: 'deepseek', model: 'deepseek-v4-flash', contextWindow: 1_048_576 })
    expect(testProvider('http://127.0.0.1:9/v1', { contextWindow: 32_768 }).provider.contextWindow).toBe(32_768)
  })

  it('DeepSeek only: thinking and reasoning_effort join the body; the openai provider sends neither', async () => {
    server = await startSseServer([{ kind: 'sse', chunks: [text('ok'), finish()] }])
    await collect(testProvider(server.baseUrl, { thinking: 'disabled', reasoningEffort: 'max' }).provider)
    await collect(testProvider(server.baseUrl, { provider: 'openai', thinking: 'enabled', reasoningEffort: 'low' }).provider)
    expect(server.requests[0]?.body).toEqual({ ...request.body, thinking: { type: 'disabled' }, reasoning_effort: 'max', stream: true, stream_options: { include_usage: true } })
    expect(server.requests[1]?.body).toEqual({ ...request.body, stream: true, stream_options: { include_usage: true } })
  })

  it('reports reasoning tokens and the cache miss from DeepSeek usage, and the endpoint as baseUrl', async () => {
    const final = usage({ prompt_tokens: 374, completion_tokens: 61, total_tokens: 435, prompt_tokens_details: { cached_tokens: 256 }, completion_tokens_details: { reasoning_tokens: 17 }, prompt_cache_hit_tokens: 256, prompt_cache_miss_tokens: 118 })
    server = await startSseServer([{ kind: 'sse', chunks: [text('ok'), finish(), final] }])
    const { provider } = testProvider(server.baseUrl)
    expect(provider.baseUrl).toBe(server.baseUrl)
    expect((await collect(provider)).at(-1)).toEqual({ type: 'usage', usage: { inputTokens: 374, outputTokens: 61, cacheHitTokens: 256, cacheMissTokens: 118, reasoningTokens: 17 } })
  })
})
