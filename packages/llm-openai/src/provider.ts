/**
 * The OpenAI-compatible model provider: one streaming chat-completions call per step through
 * the official `openai` SDK (its own retries off; the body read by our own SSE decoder), with our
 * bounded, logged retries — also after output started, announced with `discarded` so the loop
 * drops the partial answer — prompt cancellation, and typed `ModelError`s for everything else. Creation
 * checks the configuration; the SDK is loaded and its client made at the first request.
 */
import type OpenAI from 'openai'
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions'
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '@dsh/contracts'
import { proxyFor, proxySettings } from '@dsh/runtime'
import { ChunkMapper } from './chunk-mapping.ts'
import { resolveConnection } from './connection-config.ts'
import { ChunkReader } from './chunk-reader.ts'
import { createClient } from './sdk-client.ts'
import { linkSignal, sleepUnlessAborted } from './cancellation.ts'
import { createAbortError } from './errors.ts'
import { classifyFailure, toModelError, type Failure, type FailureContext } from './failure-classification.ts'
import { contextWindowFor, reasoningEchoFor, type OpenAiProviderKind, type ThinkingSetting } from './model-capabilities.ts'
import { fetchModelNames, isUnknownModelMessage, unknownModelHint } from './model-listing.ts'
import { abortableSleep, DEFAULT_MAX_RETRIES, retryDelayMs, type Sleep } from './retry-policy.ts'
import { loadSdk, type OpenAiSdk } from './sdk-loader.ts'
import { CallDeadlineError, ConnectTimeoutError, IncompleteStreamError, InsufficientResourceError } from './stream-errors.ts'

/**
 * Time allowed from sending a request until its response headers arrive (connect, TLS, the
 * server's first byte): the SDK's `timeout`. Streamed chunks after that are bounded by the idle
 * timeout instead. A server that accepts and never answers costs this much per attempt.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000

/** Options of {@link createOpenAiProvider}. */
export interface OpenAiProviderOptions {
  /** `deepseek` (default endpoint api.deepseek.com) or `openai` (any OpenAI-compatible endpoint). */
  readonly provider: OpenAiProviderKind
  /** Model name; also the provider's `model`. The request body carries its own `model` field. */
  readonly model: string
  /** Endpoint override, e.g. `http://127.0.0.1:8000/v1` for a local server. */
  readonly baseUrl?: string | undefined
  /** Key override; otherwise `DEEPSEEK_API_KEY` / `OPENAI_API_KEY` from `env`. */
  readonly apiKey?: string | undefined
  /**
   * Variable of `env` to read the key from instead (`model.apiKeyEnv`). When it is unset, creation
   * fails with `MODEL_CONFIG`, also for a loopback URL; the default variable is never used.
   */
  readonly apiKeyEnv?: string | undefined
  /** Environment to read keys and `OPENAI_BASE_URL` from (normally `process.env`). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Milliseconds to wait for the response headers of each attempt; default {@link DEFAULT_CONNECT_TIMEOUT_MS}. */
  readonly connectTimeoutMs?: number | undefined
  /** Longest time an open stream may go without progress (keep-alives and empty chunks are none) before the attempt fails (default {@link DEFAULT_IDLE_TIMEOUT_MS}). */
  readonly idleTimeoutMs?: number | undefined
  /** Longest time one call may take in all, every attempt and backoff wait included (default {@link DEFAULT_CALL_TIMEOUT_MS}). */
  readonly callTimeoutMs?: number | undefined
  /** Retries (429, 408, 5xx, network, a stream cut or stalled, also after output started); default {@link DEFAULT_MAX_RETRIES}. */
  readonly maxRetries?: number | undefined
  /**
   * DeepSeek only: `thinking: {type}` in every request (`model.thinking`). Absent: not sent, the
   * API's default (on) applies. Ignored for `openai`.
   */
  readonly thinking?: ThinkingSetting | undefined
  /** DeepSeek only: `reasoning_effort` in every request (`model.reasoningEffort`); absent: not sent (the API's default, high). */
  readonly reasoningEffort?: ReasoningEffort | undefined
  /**
   * DeepSeek only: read at every request and used instead of `thinking` / `reasoningEffort` when
   * given (live settings: an edit of settings.yaml applies from the next request). Must not throw.
   */
  readonly modes?: (() => ThinkingModes) | undefined
  /** Context window override; default from `model-capabilities.ts`. */
  readonly contextWindow?: number | undefined
  /** Receives one line per retry. Default: discard. */
  readonly logger?: ((line: string) => void) | undefined
  /** Backoff sleep, injectable for tests; must reject promptly when the signal aborts. */
  readonly sleep?: Sleep | undefined
}

/** DeepSeek's reasoning effort levels (docs "Thinking Mode"). */
export type ReasoningEffort = 'low' | 'high' | 'max'

/** The thinking fields of one request; absent fields are not sent. */
export interface ThinkingModes {
  readonly thinking?: ThinkingSetting | undefined
  readonly reasoningEffort?: ReasoningEffort | undefined
}

/** Creates a provider; throws a `MODEL_CONFIG` `ModelError` when no key is available. */
export function createOpenAiProvider(options: OpenAiProviderOptions): ModelProvider {
  const connection = resolveConnection(options)
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS
  const proxy = proxySettings(options.env)
  let connected: Promise<Connected> | undefined
  const connect = (): Promise<Connected> =>
    (connected ??= loadSdk().then((sdk) => ({ sdk, client: createClient(sdk, { connection, maxRetries: 0, timeoutMs: connectTimeoutMs, proxy }) })))
  const fixedModes: ThinkingModes = { thinking: options.thinking, reasoningEffort: options.reasoningEffort }
  const modesOf = options.modes ?? ((): ThinkingModes => fixedModes)
  const settings: StreamSettings = {
    connect,
    context: { provider: options.provider, baseUrl: connection.baseUrl, keyHint: connection.keyHint, proxy: proxyFor(proxy, connection.baseUrl) },
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? DEFAULT_MAX_RETRIES)),
    log: options.logger ?? (() => undefined),
    sleep: options.sleep ?? abortableSleep,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    connectTimeoutMs,
    extraBody: () => deepSeekExtras(options.provider, modesOf()),
  }
  return {
    id: options.provider,
    model: options.model,
    baseUrl: connection.baseUrl,
    contextWindow: options.contextWindow ?? contextWindowFor(options.model),
    // Read when each request body is built, so a live change of `thinking` changes the echo rule with it.
    get reasoningEcho() {
      return reasoningEchoFor(options.provider, modesOf().thinking)
    },
    stream: (request, signal) => streamWithRetries(settings, request, signal),
  }
}

/** The loaded SDK and the provider's client. */
interface Connected {
  readonly sdk: OpenAiSdk
  readonly client: OpenAI
}

interface StreamSettings {
  /** The SDK and client, made at the first request. */
  readonly connect: () => Promise<Connected>
  readonly context: FailureContext
  readonly maxRetries: number
  readonly log: (line: string) => void
  readonly sleep: Sleep
  readonly idleTimeoutMs: number
  readonly callTimeoutMs: number
  readonly connectTimeoutMs: number
  /** Fields added to every body (DeepSeek's `thinking` and `reasoning_effort`), read per request. */
  readonly extraBody: () => Readonly<Record<string, unknown>>
}

/** The DeepSeek-only request fields the options ask for; nothing for other providers. */
function deepSeekExtras(provider: OpenAiProviderKind, modes: ThinkingModes): Readonly<Record<string, unknown>> {
  if (provider !== 'deepseek') return {}
  return {
    ...(modes.thinking === undefined ? {} : { thinking: { type: modes.thinking } }),
    ...(modes.reasoningEffort === undefined ? {} : { reasoning_effort: modes.reasoningEffort }),
  }
}

/** Default longest time without progress in an open stream. Thinking models stream reasoning, so a long silence means a stalled connection. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000

/** Default longest time of one model call in all: half an hour (DeepSeek closes a request still queued after 10 minutes). */
export const DEFAULT_CALL_TIMEOUT_MS = 1_800_000

/** The caller's signal plus the call's overall deadline. */
function withDeadline(parent: AbortSignal, ms: number): { readonly signal: AbortSignal; readonly fired: () => CallDeadlineError | undefined } & Disposable {
  const call = linkSignal(parent)
  let fired: CallDeadlineError | undefined
  const timer = setTimeout(() => {
    fired = new CallDeadlineError(ms)
    call.abort(fired)
  }, ms)
  return {
    signal: call.signal,
    fired: () => fired,
    [Symbol.dispose]: () => {
      clearTimeout(timer)
      call[Symbol.dispose]()
    },
  }
}

/** The warning for a finish reason that cut the answer short but is still an answer. */
function cutAnswerWarning(provider: string, reason: string): string | undefined {
  if (reason === 'length') return `${provider}: the answer was cut off at the output limit (finish_reason length); it may be incomplete`
  if (reason === 'content_filter') return `${provider}: the answer was cut off by the provider's content filter (finish_reason content_filter); it may be incomplete`
  return undefined
}

async function* streamWithRetries(settings: StreamSettings, request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
  const deadline = withDeadline(signal, settings.callTimeoutMs)
  try {
    yield* attempts(settings, request, signal, deadline)
  } finally {
    deadline[Symbol.dispose]()
  }
}

async function* attempts(settings: StreamSettings, request: ModelRequest, signal: AbortSignal, deadline: { readonly signal: AbortSignal; readonly fired: () => CallDeadlineError | undefined }): AsyncGenerator<ModelStreamEvent> {
  // The shared body uses readonly arrays and an extra `reasoning_content`, so it is not the SDK's
  // type, but its JSON is exactly the chat-completions body; the SDK only serialises it.
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion
  const body = { ...request.body, ...settings.extraBody(), stream: true, stream_options: { include_usage: true } } as unknown as ChatCompletionCreateParamsStreaming
  const { sdk, client } = await settings.connect()
  for (let retries = 0; ; retries += 1) {
    const mapper = new ChunkMapper()
    let yielded = false
    let answered = false
    let failed: { readonly error: unknown } | undefined
    const attempt = linkSignal(deadline.signal)
    let reader: ChunkReader | undefined
    try {
      const opened = await openBody(client, body, attempt.signal)
      if ('error' in opened) failed = opened.error instanceof sdk.APIConnectionTimeoutError ? { error: new ConnectTimeoutError(settings.connectTimeoutMs) } : opened
      else {
        answered = true
        reader = new ChunkReader({ body: opened.body, idleMs: settings.idleTimeoutMs, attempt })
        for (;;) {
          const read = await readChunk(reader)
          if (read === undefined) break
          if ('error' in read) {
            failed = read
            break
          }
          const events = mapper.map(read.chunk)
          if (events.length > 0 || carriesProgress(read.chunk)) reader.progressed()
          for (const event of events) {
            yielded = true
            yield event
          }
        }
      }
    } finally {
      reader?.close()
      // Closes the HTTP request if it is still open (the consumer stopped early, or a read failed).
      attempt[Symbol.dispose]()
    }
    // The fetch ends a body silently on abort, so the signal is the only reliable witness.
    if (signal.aborted) throw createAbortError(signal)
    const late = deadline.fired()
    if (late !== undefined) throw toModelError(classifyFailure(late, sdk), settings.context, retries, late)
    if (!failed) {
      const reason = mapper.finishReason
      if (reason === 'insufficient_system_resource') failed = { error: new InsufficientResourceError() }
      else if (reason !== undefined) {
        const warning = cutAnswerWarning(settings.context.provider, reason)
        if (warning !== undefined) settings.log(warning)
        if (reason === 'length' || reason === 'content_filter') yield { type: 'cut', reason: reason === 'length' ? 'length' : 'content-filter' }
        yield* mapper.finish()
        return
      } else failed = { error: new IncompleteStreamError() }
    }
    const failure = classifyFailure(failed.error, sdk, { answered })
    if (!failure.retryable && isUnknownModelMessage(failure.status, failure.detail)) {
      const names = await fetchModelNames(client, signal).catch(() => {
        // Swallows a failed listing: the hint then says the endpoint did not list its models.
        return undefined
      })
      if (signal.aborted) throw createAbortError(signal)
      throw toModelError({ ...failure, detail: `${failure.detail}; ${unknownModelHint(settings.context.provider, names)}` }, settings.context, retries, failed.error)
    }
    if (!failure.retryable || retries >= settings.maxRetries) throw toModelError(failure, settings.context, retries, failed.error, { afterOutput: yielded })
    const delay = retryDelayMs(retries, failure.retryAfterMs)
    settings.log(retryAnnouncement(settings, failure, retries, delay, yielded))
    yield {
      type: 'retry',
      attempt: retries + 2,
      maxAttempts: settings.maxRetries + 1,
      delayMs: delay,
      code: failure.code,
      detail: failure.detail,
      ...(failure.status === undefined ? {} : { status: failure.status }),
      ...(yielded ? { discarded: true } : {}),
    }
    await sleepUnlessAborted(settings.sleep, delay, deadline.signal).catch((error: unknown) => {
      // Swallows the abort of a backoff wait that the deadline (not the caller) ended: the deadline is what to report.
      const ended = deadline.fired()
      if (ended !== undefined && !signal.aborted) throw toModelError(classifyFailure(ended, sdk), settings.context, retries, ended)
      throw error
    })
  }
}

/** A chunk that carried no event still moved the answer on when it finished it or reported usage. */
function carriesProgress(chunk: ChatCompletionChunk): boolean {
  return chunk.usage !== undefined && chunk.usage !== null ? true : (chunk.choices ?? []).some((choice) => typeof choice.finish_reason === 'string')
}

/** Sends the request; the raw body of a 2xx answer, or the failure (HTTP error status, refused connection, abort) for classification. */
async function openBody(client: OpenAI, body: ChatCompletionCreateParamsStreaming, signal: AbortSignal): Promise<{ readonly body: ReadableStream<Uint8Array> } | { readonly error: unknown }> {
  try {
    // The raw response: the SDK still turns an HTTP error status into its APIError, but the body is
    // read by our own decoder (linear in the size of an event, with progress by bytes).
    const response = await client.chat.completions.create(body, { signal }).asResponse()
    if (response.body === null) return { error: new IncompleteStreamError() }
    return { body: response.body }
  } catch (error) {
    // Swallows the failure to open: returned for classification.
    return { error }
  }
}

/** Reads one chunk; a failure is returned rather than thrown so the retry loop can classify it. */
async function readChunk(reader: ChunkReader): Promise<{ readonly chunk: ChatCompletionChunk } | { readonly error: unknown } | undefined> {
  try {
    const chunk = await reader.next()
    return chunk === undefined ? undefined : { chunk }
  } catch (error) {
    // Swallows a read failure (socket reset, idle limit, malformed chunk, in-stream error object): returned for classification.
    return { error }
  }
}

/** The one line that announces a retry: what failed, which attempt comes next, and after what delay; whether streamed output was discarded. */
function retryAnnouncement(settings: StreamSettings, failure: Failure, retries: number, delay: number, discarded: boolean): string {
  const http = failure.status === undefined ? '' : ` HTTP ${failure.status}`
  const next = `attempt ${retries + 2} of ${settings.maxRetries + 1} in ${delay} ms`
  if (discarded) return `${settings.context.provider}:${http} ${failure.code} (${failure.detail}) after output had started; retrying: ${next}, the partial answer is discarded`
  return `${settings.context.provider}:${http} ${failure.code} (${failure.detail}); ${next}`
}
