/**
 * The lines of `dsh run --output-format stream-json` (and the one object of `json`), as the
 * published schema `schemas/stream-json.v1.schema.json` describes them. Types only.
 *
 * Between the first line (`system/init`) and the last (`result`) every line is one committed
 * session-log event of the run's session, in log order, with the log's own `type`, `seq`, `time`
 * and `data` (the session log, ACP, web and scripts share one vocabulary), plus `session_id`.
 */
import type { SurfaceOp } from '@dsh/contracts'

/** Version of the line format; a breaking change gets a new schema file and a new number. */
export const STREAM_JSON_SCHEMA_VERSION = 1

/** Where the schema lives in the repository (named by `dsh run --help`). */
export const STREAM_JSON_SCHEMA_PATH = 'schemas/stream-json.v1.schema.json'

/** An MCP server as the init line reports it (none exist yet: the list is empty). */
export interface McpServerLine {
  /** Server name. */
  readonly name: string
  /** Connection state. */
  readonly status: string
}

/** One workspace root of the session. */
export interface RootLine {
  /** Absolute path. */
  readonly path: string
  /** `primary` for the working directory, else the additional root's state. */
  readonly state: string
}

/** First line: what the session runs with. Written before the model is called. */
export interface InitLine {
  readonly type: 'system/init'
  /** Session id (what `--resume` takes). */
  readonly session_id: string
  /** Working directory of the session (absolute). */
  readonly cwd: string
  /** Model name the provider sends. */
  readonly model: string
  /** Names of the tools offered to the model. */
  readonly tools: readonly string[]
  /** MCP servers with their states. */
  readonly mcp_servers: readonly McpServerLine[]
  /** The primary root first, then additional roots. */
  readonly roots: readonly RootLine[]
  /** Permission mode in force. */
  readonly permission_mode: string
  /** Version of dsh. */
  readonly dsh_version: string
  /** {@link STREAM_JSON_SCHEMA_VERSION}. */
  readonly schema_version: number
}

/** A committed session-log event of the run's session. */
export interface EventLine {
  /** The log's event type (`user/message`, `tool/call`, `model/retry`, …). */
  readonly type: string
  readonly session_id: string
  /** The log's sequence number. */
  readonly seq: number
  /** The log's ISO timestamp. */
  readonly time: string
  /** The log's payload. */
  readonly data: unknown
  readonly surfaceOp?: SurfaceOp
  readonly sourceEventSeqs?: readonly number[]
  /** Set on the events of a subagent's session (any depth): `session_id` stays the run's, `seq` is the subagent log's. */
  readonly subagent?: SubagentMark
}

/** Which subagent an event line comes from. */
export interface SubagentMark {
  /** The subagent's own session id. */
  readonly session_id: string
  /** The session that started it (the run's, or another subagent's). */
  readonly parent_session_id: string
  /** The `subagent` tool call in the parent session that started it (Claude Code's `parent_tool_use_id`). */
  readonly parent_tool_use_id: string
  /** Delegation depth (1: started by the run's own agent). */
  readonly depth: number
}

/** A streamed piece of text or reasoning (only with `--include-partial`); never in the log. */
export interface DeltaLine {
  readonly type: 'stream/delta'
  readonly session_id: string
  /** What the piece belongs to. */
  readonly kind: 'text' | 'reasoning'
  /** The piece. */
  readonly text: string
  /** The turn, step and model attempt the piece belongs to: a later `model/retry` event with the same turn and step, `discarded: true` and a higher `attempt` makes it void. */
  readonly turn: number
  readonly step: number
  readonly attempt: number
}

/** Token counts of the run, summed over its model calls. */
export interface UsageLine {
  readonly input_tokens: number
  readonly output_tokens: number
  /** Prompt tokens served from the provider's cache; null when the provider reported none. */
  readonly cache_hit_tokens: number | null
  /** Prompt tokens not served from the cache; null when the provider reported no cache figures. */
  readonly cache_miss_tokens: number | null
}

/** A tool call the permission policy or a hook refused. */
export interface PermissionDenialLine {
  readonly tool_name: string
  readonly tool_use_id: string
  /** `rule`, `mode`, `answer` (the policy) or `hook`. */
  readonly by: string
  /** The deny rule, or the hook's reason. */
  readonly reason?: string
}

/** The last line (and the only object of `json`). `is_error` is true exactly when the exit code is not 0. */
export interface ResultLine {
  readonly type: 'result'
  /** Null when dsh failed before a session existed (a bad config file). */
  readonly session_id: string | null
  readonly is_error: boolean
  /** The final answer text ('' when there is none). */
  readonly result: string
  /** `completed`, `max-steps`, `cancelled`, `blocked` or `error`. */
  readonly stop_reason: string
  /** Claude Code's name of the outcome, so its scripts read ours: `success`, `error_max_turns` or `error_during_execution`. */
  readonly subtype: 'success' | 'error_max_turns' | 'error_during_execution'
  /** `num_steps` under Claude Code's name. */
  readonly num_turns: number
  /** Steps the run's turns took. */
  readonly num_steps: number
  /** Wall time of the whole command, in milliseconds. */
  readonly duration_ms: number
  readonly usage: UsageLine
  readonly permission_denials: readonly PermissionDenialLine[]
  /** The process's exit code. */
  readonly exit_code: number
  /** Present exactly when `is_error` is true. */
  readonly error?: { readonly code: string; readonly message: string }
}

/** Any line. */
export type StreamLine = InitLine | EventLine | DeltaLine | ResultLine
