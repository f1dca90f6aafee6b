/**
 * Contracts of the DeepSeek imitation (`startDeepSeekServer`): what one scripted answer is, how
 * strict the server is, and what it records per request. Written from DeepSeek's documentation
 * as of late 2026 (see /work/shared/research/deepseek-api.md and the testkit README).
 */

/** DeepSeek `finish_reason` values. */
export type DeepSeekFinishReason = 'stop' | 'length' | 'content_filter' | 'tool_calls' | 'insufficient_system_resource'

/**
 * A broken stream. `stall`: half the reasoning, then silence with the socket open. `reset`: half
 * the reasoning, then the socket is destroyed. `keep-alive-only`: the whole message but no final
 * chunk and no `[DONE]`, only `: keep-alive` comments until the client leaves.
 * `headers-then-silence`: 200 and the headers, then nothing. `empty-chunks`: the role chunk, then
 * valid chunks with an empty delta every `keepAliveEveryMs` until the client leaves (issue 22 F5;
 * not seen from DeepSeek, a server fault the client must survive). `trickle`: the role chunk, then
 * one reasoning piece every `keepAliveEveryMs`, forever (real progress that never ends).
 */
export type DeepSeekStreamFault = 'stall' | 'reset' | 'keep-alive-only' | 'headers-then-silence' | 'empty-chunks' | 'trickle'

/** One scripted answer (an accepted chat request consumes one). */
export interface DeepSeekAnswer {
  /** Reasoning streamed in thinking mode (dropped when thinking is disabled); default a short line. */
  readonly reasoning?: string
  /** Answer text. */
  readonly text?: string
  /** Tool calls; `arguments` is sent exactly as given, cut into small pieces. */
  readonly toolCalls?: readonly { readonly name: string; readonly arguments: string }[]
  /** Final `finish_reason`; default `tool_calls` with calls, else `stop`. `insufficient_system_resource` cuts the output after half the reasoning. */
  readonly finishReason?: DeepSeekFinishReason
  /** A broken stream instead of a complete one. */
  readonly fault?: DeepSeekStreamFault
  /** With `stall` or `reset`: how many answer-text pieces go out before the cut (default: none, the cut comes halfway through the reasoning). */
  readonly cutAfterTextPieces?: number
  /** An HTTP error instead of a stream: 401, 402, 429, 500 or 503, with DeepSeek's envelope. */
  readonly status?: 401 | 402 | 429 | 500 | 503
  /** `: keep-alive` comments sent before the first chunk (queued request); default 1. */
  readonly keepAlives?: number
  /** Every tool call of the answer streams the first call's id (issue 22 F6; DeepSeek never documented unique ids). */
  readonly duplicateCallIds?: boolean
  /**
   * The answer text as one content chunk (one SSE event however large), written `bytesPerWrite`
   * bytes at a time every `everyMs` (issue 22 F18: a big event on a slow link).
   */
  readonly bigEvent?: { readonly bytesPerWrite: number; readonly everyMs: number }
  /** With `status` 500/503: an HTML page from a proxy in front of the API instead of DeepSeek's JSON envelope. */
  readonly htmlBody?: boolean
}

/** What an answer script sees of a request. */
export interface DeepSeekRequestView {
  /** The parsed body. */
  readonly body: Readonly<Record<string, unknown>>
  /** 0-based number of the accepted chat request. */
  readonly index: number
}

/** Options of `startDeepSeekServer`. */
export interface DeepSeekServerOptions {
  /**
   * Serve HTTPS with this key and certificate (PEM) instead of HTTP; `host` is the name the base
   * URL uses (default `127.0.0.1`; the certificate must name it, and it must resolve to loopback).
   */
  readonly tls?: { readonly key: string; readonly cert: string; readonly host?: string } | undefined
  /** Answers by accepted request (the last repeats), or a function choosing one. */
  readonly answers: readonly DeepSeekAnswer[] | ((request: DeepSeekRequestView) => DeepSeekAnswer)
  /**
   * `strict` (default, the documented rule): with `tools` present and thinking on, every assistant
   * message must carry a string `reasoning_content` (`""` allowed). `lenient` (observed): only a
   * history where some assistant messages carry it and others do not is refused.
   */
  readonly reasoningRule?: 'strict' | 'lenient'
  /** Names served by chat requests (default: `deepseek-flash`, `deepseek-v4-pro` and the legacy `deepseek-v4-flash*`). */
  readonly servedModels?: readonly string[]
  /** Names `GET /models` lists (default `deepseek-flash`, `deepseek-v4-pro`, as on 2026-09-11). */
  readonly listedModels?: readonly string[]
  /** Context window in tokens for the context-length 400 (default 1 048 576). */
  readonly contextWindow?: number
  /** When set, requests without `Authorization: Bearer <apiKey>` get the 401. */
  readonly apiKey?: string
  /** Milliseconds between the `: keep-alive` comments of a `keep-alive-only` fault (default 20). */
  readonly keepAliveEveryMs?: number
}

/** Cache accounting of one accepted request. */
export interface DeepSeekCacheReport {
  /** Prompt tokens (`prompt_tokens`). */
  readonly promptTokens: number
  /** `prompt_cache_hit_tokens`. */
  readonly hitTokens: number
  /** `prompt_cache_miss_tokens`. */
  readonly missTokens: number
}

/** One request as the imitation saw and answered it. */
export interface DeepSeekRecord {
  /** `GET` or `POST`. */
  readonly method: string
  /** Request path. */
  readonly url: string
  /** Parsed JSON body (undefined for `GET`). */
  readonly body: Readonly<Record<string, unknown>> | undefined
  /** `Authorization` header. */
  readonly authorization: string | undefined
  /** HTTP status of the answer. */
  readonly status: number
  /** The error body of a refusal (status ≥ 400). */
  readonly error?: { readonly message: string; readonly type: string }
  /** The prompt as the cache model renders it (accepted chat requests). */
  readonly prompt?: string
  /** The prompt plus the rendered answer, as the next request would replay it (accepted chat requests that finished). */
  readonly promptWithAnswer?: string
  /** Cache accounting (accepted chat requests). */
  readonly cache?: DeepSeekCacheReport
}
