// The DeepSeek imitation itself: chunk shapes, the strict reasoning rule with its exact 400 body,
// unknown models, the model listing and the prefix-cache accounting, over real loopback HTTP.
import { afterEach, describe, expect, it } from 'vitest'
import { startDeepSeekServer, type DeepSeekServer } from '../src/index.ts'

let server: DeepSeekServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const tools = [{ type: 'function', function: { name: 'read', description: 'Read a file', parameters: { type: 'object' } } }]

async function post(body: object): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server?.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: response.status, text: await response.text() }
}

/** The `data:` payloads of an event stream, `[DONE]` included. */
const events = (text: string): string[] => text.split('\n\n').filter((part) => part.startsWith('data: ')).map((part) => part.slice('data: '.length))

describe('the DeepSeek imitation', () => {
  it('streams thinking-mode chunks: role, reasoning, content, tool-call fragments, usage on the final chunk only, after a keep-alive', async () => {
    server = await startDeepSeekServer({ answers: [{ reasoning: 'Need the file.', text: 'Let me check.', toolCalls: [{ name: 'read', arguments: '{"path":"a.txt"}' }] }] })
    const { status, text } = await post({ model: 'deepseek-v4-flash', messages: [{ role: 'user', content: 'hi' }], tools, stream: true })
    expect(status).toBe(200)
    expect(text.startsWith(': keep-alive\n\n')).toBe(true)
    const data = events(text)
    expect(data.at(-1)).toBe('[DONE]')
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the imitation's own chunks, asserted on below
    const chunks = data.slice(0, -1).map((line) => JSON.parse(line) as { id: string; usage: unknown; choices: { delta: Record<string, unknown>; finish_reason: string | null }[] })
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1)
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: null, reasoning_content: '' })
    expect(chunks[1]?.choices[0]?.delta).toEqual({ content: null, reasoning_content: 'Need ' })
    const first = chunks.find((chunk) => chunk.choices[0]?.delta.tool_calls !== undefined)
    expect(first?.choices[0]?.delta).toEqual({ tool_calls: [{ index: 0, id: expect.stringMatching(/^call_00_[A-Za-z0-9]{24}$/), type: 'function', function: { name: 'read', arguments: '' } }] })
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null && chunk.choices[0]?.finish_reason === null)).toBe(true)
    const last = chunks.at(-1)
    expect(last?.choices[0]).toMatchObject({ delta: { content: '', reasoning_content: null }, finish_reason: 'tool_calls' })
    expect(last?.usage).toMatchObject({ prompt_cache_hit_tokens: 0, completion_tokens_details: { reasoning_tokens: expect.any(Number) } })
  })

  it('refuses, with the exact documented body, a thinking-mode request with tools whose assistant message lacks reasoning_content', async () => {
    server = await startDeepSeekServer({ answers: [{ text: 'ok' }] })
    const history = [{ role: 'user', content: 'q1' }, { role: 'assistant', content: 'a1' }, { role: 'user', content: 'q2' }]
    const refused = await post({ model: 'deepseek-flash', messages: history, tools, stream: true })
    expect(refused).toEqual({
      status: 400,
      text: '{"error":{"message":"The `reasoning_content` in the thinking mode must be passed back to the API.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}',
    })
    // "" is accepted; so is the same history without tools, or with thinking disabled.
    expect((await post({ model: 'deepseek-flash', messages: [history[0], { ...history[1], reasoning_content: '' }, history[2]], tools, stream: true })).status).toBe(200)
    expect((await post({ model: 'deepseek-flash', messages: history, stream: true })).status).toBe(200)
    expect((await post({ model: 'deepseek-flash', messages: history, tools, thinking: { type: 'disabled' }, stream: true })).status).toBe(200)
  })

  it('answers an unknown model with Model Not Exist, tool_choice required in thinking mode with a 400, and lists its models', async () => {
    server = await startDeepSeekServer({ answers: [{ text: 'ok' }] })
    expect(await post({ model: 'deepseek-chat', messages: [{ role: 'user', content: 'hi' }], stream: true })).toEqual({
      status: 400,
      text: '{"error":{"message":"Model Not Exist","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}',
    })
    expect((await post({ model: 'deepseek-flash', messages: [{ role: 'user', content: 'hi' }], tools, tool_choice: 'required', stream: true })).status).toBe(400)
    const listing = await (await fetch(`${server.baseUrl}/models`)).json()
    expect(listing).toEqual({ object: 'list', data: [{ id: 'deepseek-flash', object: 'model', owned_by: 'deepseek' }, { id: 'deepseek-v4-pro', object: 'model', owned_by: 'deepseek' }] })
  })

  it('reports a cache hit for a request that replays the previous prompt and answer byte for byte, and a smaller one when it departs', async () => {
    server = await startDeepSeekServer({ answers: [{ reasoning: 'think', text: 'one' }, { reasoning: 'again', text: 'two' }, { text: 'three' }] })
    const system = { role: 'system', content: 'You are a careful assistant. '.repeat(20) }
    await post({ model: 'deepseek-flash', messages: [system, { role: 'user', content: 'q1' }], tools, stream: true })
    const replayed = await post({ model: 'deepseek-flash', messages: [system, { role: 'user', content: 'q1' }, { role: 'assistant', content: 'one', reasoning_content: 'think' }, { role: 'user', content: 'q2' }], tools, stream: true })
    expect(replayed.status).toBe(200)
    const [first, second] = server.records
    expect(first?.cache).toMatchObject({ hitTokens: 0 })
    expect(second?.prompt?.startsWith(first?.promptWithAnswer ?? '-')).toBe(true)
    expect(second?.cache?.hitTokens).toBe(Math.floor(Buffer.byteLength(first?.promptWithAnswer ?? '') / 4))
    // Dropping the reasoning departs from the stored answer: only the earlier prompt unit hits.
    await post({ model: 'deepseek-flash', messages: [system, { role: 'user', content: 'q1' }, { role: 'assistant', content: 'one', reasoning_content: '' }, { role: 'user', content: 'q2' }], tools, stream: true })
    expect(server.records[2]?.cache?.hitTokens).toBe(Math.floor(Buffer.byteLength(first?.prompt ?? '') / 4))
  })
})
