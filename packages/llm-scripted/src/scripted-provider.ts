/**
 * A model provider that replays a script: one response per model call, in order. Text is
 * streamed in small pieces so front ends exercise their streaming paths; running out of
 * responses is an error naming the turn and step.
 */
import { existsSync } from 'node:fs'
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '@dsh/contracts'
import { ScriptError } from './script-error.ts'
import type { ModelScript, ScriptedResponse } from './script-schema.ts'

/** Options of the scripted provider. */
export interface ScriptedProviderOptions {
  /** Model name reported in request bodies. */
  readonly model?: string
  /** Context window used for automatic compaction decisions. */
  readonly contextWindow?: number
  /** Where the script came from, for error messages. */
  readonly origin?: string
}

/** A scripted provider plus how far it got. */
export interface ScriptedProvider extends ModelProvider {
  /** Number of responses consumed so far. */
  readonly consumed: number
}

function pieces(text: string): string[] {
  const out: string[] = []
  for (let index = 0; index < text.length; index += 16) out.push(text.slice(index, index + 16))
  return out
}

function abortError(): Error {
  const error = new Error('The model call was aborted')
  error.name = 'AbortError'
  return error
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  // An already aborted signal never fires 'abort' again: reject now, whatever the delay.
  if (signal.aborted) return Promise.reject(abortError())
  if (ms === 0) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(abortError())
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Waits until `file` exists (polled), or forever without one; rejects when `signal` aborts. Lets a
 * test cancel or type "while the answer streams" however slowly a loaded machine runs.
 */
async function hold(file: string | undefined, signal: AbortSignal): Promise<void> {
  for (;;) {
    await wait(file === undefined ? 60_000 : 20, signal)
    if (file !== undefined && existsSync(file)) return
  }
}

async function* replay(response: ScriptedResponse, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
  const delay = response.delayMs ?? 0
  for (const text of pieces(response.reasoning ?? '')) {
    await wait(delay, signal)
    yield { type: 'reasoning', text }
  }
  for (const [index, text] of pieces(response.text ?? '').entries()) {
    if (index === response.holdAfter) await hold(response.releaseFile, signal)
    await wait(delay, signal)
    yield { type: 'text', text }
  }
  let index = 0
  for (const call of response.toolCalls ?? []) {
    await wait(delay, signal)
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)
    yield { type: 'tool-call-delta', index, id: call.id ?? `call_${index + 1}`, name: call.name, argumentsDelta: args }
    index += 1
  }
  const usage = response.usage
  yield {
    type: 'usage',
    usage:
      usage === undefined
        ? { inputTokens: 0, outputTokens: 0 }
        : { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, ...(usage.cacheHitTokens === undefined ? {} : { cacheHitTokens: usage.cacheHitTokens }) },
  }
}

/** Creates a scripted provider over a validated script. */
export function createScriptedProvider(script: ModelScript, options: ScriptedProviderOptions = {}): ScriptedProvider {
  let consumed = 0
  const origin = options.origin ?? 'model script'
  return {
    id: 'scripted',
    model: options.model ?? 'scripted',
    contextWindow: options.contextWindow ?? 128_000,
    get consumed() {
      return consumed
    },
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      const response = script.responses[consumed]
      if (response === undefined) {
        throw new ScriptError(
          `${origin}: ran out of responses at turn ${request.turn}, step ${request.step} (the script has ${script.responses.length}; add one for this model call)`,
          'MODEL_SCRIPT_EXHAUSTED',
        )
      }
      consumed += 1
      const prefix = `call_t${request.turn}s${request.step}`
      const withIds: ScriptedResponse = {
        ...response,
        ...(response.toolCalls === undefined ? {} : { toolCalls: response.toolCalls.map((call, i) => ({ ...call, id: call.id ?? `${prefix}_${i + 1}` })) }),
      }
      return replay(withIds, signal)
    },
  }
}
