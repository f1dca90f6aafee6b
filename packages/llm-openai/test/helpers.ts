/**
 * Test helpers: chat-completions chunk builders (the shapes DeepSeek and OpenAI stream), a
 * provider factory pointed at the loopback server with a recording logger and instant sleep,
 * and collectors that run a stream to completion or failure.
 */
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '@dsh/contracts'
import { createOpenAiProvider, type OpenAiProviderOptions } from '../src/index.ts'

export { deltaChunk, text, reasoning, finish, toolPiece, usage } from '@dsh/testkit'

/** A small request body like the runtime builds. */
export const request: ModelRequest = {
  turn: 1,
  step: 1,
  body: {
    model: 'deepseek-v4-flash',
    messages: [
      { role: 'system', content: 'You are dsh.' },
      { role: 'user', content: 'List the files.' },
    ],
    tools: [{ type: 'function', function: { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: {} } } }],
  },
}

/** A provider on `baseUrl` with instant sleeps; `logs` and `sleeps` record what it did. */
export function testProvider(baseUrl: string, overrides: Partial<OpenAiProviderOptions> = {}): { provider: ModelProvider; logs: string[]; sleeps: number[] } {
  const logs: string[] = []
  const sleeps: number[] = []
  const provider = createOpenAiProvider({
    provider: 'deepseek',
    model: 'deepseek-v4-flash',
    baseUrl,
    env: { DEEPSEEK_API_KEY: 'sk-test-key' },
    logger: (line) => logs.push(line),
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    ...overrides,
  })
  return { provider, logs, sleeps }
}

/** Runs a stream to its end and returns every event. */
export async function collect(provider: ModelProvider, signal = new AbortController().signal): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = []
  for await (const event of provider.stream(request, signal)) events.push(event)
  return events
}

/** Runs a stream expecting it to fail; returns the events seen before the failure and the error. */
export async function collectFailure(provider: ModelProvider, signal = new AbortController().signal): Promise<{ events: ModelStreamEvent[]; error: unknown }> {
  const events: ModelStreamEvent[] = []
  try {
    for await (const event of provider.stream(request, signal)) events.push(event)
  } catch (error) {
    // Swallows the expected failure: returned to the test, which asserts on it.
    return { events, error }
  }
  throw new Error(`expected the stream to fail, got ${events.length} events`)
}

/** The message of a caught error (or its string form). */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Concatenates the text events. */
export const joinText = (events: readonly ModelStreamEvent[], type: 'text' | 'reasoning' = 'text'): string =>
  events.map((event) => (event.type === type ? event.text : '')).join('')

/** Assembles tool-call deltas by index into `name arguments` lines, as the agent loop would. */
export function assembleToolCalls(events: readonly ModelStreamEvent[]): string[] {
  const calls = new Map<number, { id: string; name: string; args: string }>()
  for (const event of events) {
    if (event.type !== 'tool-call-delta') continue
    const call = calls.get(event.index) ?? { id: '', name: '', args: '' }
    call.id += event.id ?? ''
    call.name += event.name ?? ''
    call.args += event.argumentsDelta ?? ''
    calls.set(event.index, call)
  }
  return [...calls.entries()].toSorted(([a], [b]) => a - b).map(([, call]) => `${call.id} ${call.name} ${call.args}`)
}
