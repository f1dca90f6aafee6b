/**
 * Model port: one streaming call per step. Providers translate the shared wire request into
 * their transport and report deltas back; the loop assembles the assistant message.
 */
import type { Usage } from './messages.ts'

/** One OpenAI-compatible chat message as sent on the wire. */
export type WireMessage =
  | {
      /** The system prompt (always first, exactly once). */
      readonly role: 'system'
      /** Assembled system prompt text. */
      readonly content: string
    }
  | {
      /** A user-role message (typed prompts and every injected context). */
      readonly role: 'user'
      /** The message text, verbatim. */
      readonly content: string
    }
  | {
      /** A model response. */
      readonly role: 'assistant'
      /** Answer text; `null` when the response only calls tools. */
      readonly content: string | null
      /** Tool calls, in the order the model made them. */
      readonly tool_calls?: readonly WireToolCall[]
      /** DeepSeek reasoning, sent back only when the provider requires it (`""` for a message without reasoning). */
      readonly reasoning_content?: string
    }
  | {
      /** A tool result. */
      readonly role: 'tool'
      /** The call it answers. */
      readonly tool_call_id: string
      /** Result text the model sees. */
      readonly content: string
    }

/** A tool call on the wire. */
export interface WireToolCall {
  /** Call id. */
  readonly id: string
  /** Always `function`. */
  readonly type: 'function'
  /** Function name and raw JSON arguments. */
  readonly function: { readonly name: string; readonly arguments: string }
}

/** A tool offered to the model. */
export interface WireTool {
  /** Always `function`. */
  readonly type: 'function'
  /** Name, description and JSON-schema parameters. */
  readonly function: { readonly name: string; readonly description: string; readonly parameters: Record<string, unknown> }
}

/** The chat-completions request body, exactly as it would be sent (minus transport flags like `stream`). */
export interface ChatRequestBody {
  /** Model name. */
  readonly model: string
  /** System message first, then history. */
  readonly messages: readonly WireMessage[]
  /** Offered tools; omitted when empty. */
  readonly tools?: readonly WireTool[]
}

/** What the loop hands a provider. */
export interface ModelRequest {
  /** Wire body, built by shared runtime code so every provider sends the same thing. */
  readonly body: ChatRequestBody
  /** 1-based turn number, for diagnostics and scripted-model errors. */
  readonly turn: number
  /** 1-based step number within the turn. */
  readonly step: number
}

/** One streamed event. */
export type ModelStreamEvent =
  | {
      /** Visible answer text. */
      readonly type: 'text'
      /** The next piece of the answer. */
      readonly text: string
    }
  | {
      /** Reasoning text (never the answer). */
      readonly type: 'reasoning'
      /** The next piece of reasoning. */
      readonly text: string
    }
  | {
      /** A piece of a tool call; pieces with the same `index` are concatenated. */
      readonly type: 'tool-call-delta'
      /** Position of the call in the response (0-based); groups pieces. */
      readonly index: number
      /** Call id; sent once (usually with the first piece). */
      readonly id?: string
      /** Tool name (or a piece of it). */
      readonly name?: string
      /** The next piece of the raw JSON argument text. */
      readonly argumentsDelta?: string
    }
  | {
      /**
       * The provider is about to retry a failed request. Recorded by the loop as a `model/retry`
       * session event. With `discarded`, output of the failed attempt had already been streamed:
       * everything streamed since the call began is void and the loop drops it.
       */
      readonly type: 'retry'
      /** The attempt that comes next (2 for the first retry). */
      readonly attempt: number
      /** Attempts allowed in all (retries + 1). */
      readonly maxAttempts: number
      /** Wait before the next attempt, in milliseconds. */
      readonly delayMs: number
      /** Stable code of the failure (`MODEL_RATE_LIMIT`, `MODEL_SERVER`, `MODEL_NETWORK`). */
      readonly code: string
      /** HTTP status of the failed attempt, when there was one. */
      readonly status?: number
      /** One line saying what failed. */
      readonly detail: string
      /** True when the failed attempt had streamed output, now discarded (the next attempt starts over). */
      readonly discarded?: boolean
    }
  | {
      /**
       * The provider cut the answer short, and what streamed is still the answer: at the output
       * limit (`length`) or by its content filter (`content-filter`). Sent before the stream ends.
       */
      readonly type: 'cut'
      /** Why the answer is incomplete. */
      readonly reason: AnswerCut
    }
  | {
      /** Token usage (usually last). */
      readonly type: 'usage'
      /** Counts for the whole call. */
      readonly usage: Usage
    }

/** Why a provider cut an answer short (issue 22 F4): the output limit or its content filter. */
export type AnswerCut = 'length' | 'content-filter'

/** A model provider. */
export interface ModelProvider {
  /** Provider id (`deepseek`, `openai`, `scripted`). */
  readonly id: string
  /** Model name used in the request body. */
  readonly model: string
  /** Endpoint base URL (never the key), recorded in `request/header` so a resume can reuse it; absent for providers without one. */
  readonly baseUrl?: string
  /** Context window in tokens, for automatic compaction. */
  readonly contextWindow: number
  /**
   * How earlier reasoning must be sent back. `with-tools` (DeepSeek thinking mode): when the
   * request carries tools, every earlier assistant message carries `reasoning_content`, the exact
   * text received or `""` where there was none (the API answers 400 otherwise); a request
   * without tools carries none. Absent: reasoning is never sent back. Read each time a request
   * body is built: it may change between requests (thinking switched in live settings).
   */
  readonly reasoningEcho?: 'with-tools' | undefined
  /**
   * Streams one response. Must stop promptly and reject with an AbortError-like error when
   * `signal` aborts. Rejects with a {@link ModelErrorShape} on other failures.
   */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>
}

/** Stable model error codes. */
export type ModelErrorCode =
  | 'MODEL_AUTH'
  | 'MODEL_RATE_LIMIT'
  | 'MODEL_SERVER'
  | 'MODEL_NETWORK'
  | 'MODEL_BAD_RESPONSE'
  | 'MODEL_SCRIPT_EXHAUSTED'
  | 'MODEL_CONFIG'
  /** The request is larger than the model's context (a 400 saying so); the loop compacts once and retries. */
  | 'MODEL_CONTEXT_LENGTH'
  /** The model answered with no text and no tool call (issue 22 F22). */
  | 'MODEL_EMPTY_ANSWER'

/** Errors thrown by providers. */
export interface ModelErrorShape extends Error {
  /** Stable code. */
  readonly code: ModelErrorCode
}
