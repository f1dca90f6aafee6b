/**
 * Session log contracts: the JSONL header, the event envelope, core event payloads and the
 * visible-surface operations that compaction uses.
 */
import type { AssistantMessage, ToolResultMessage, Usage, UserMessage } from './messages.ts'
import type { ToolPermissionData } from './permission.ts'

/** Session file format version written by this build. */
export type SessionFormatVersion = 1

/** First line of every session file. */
export interface SessionHeader {
  /** Discriminant of the header line. */
  readonly type: 'session'
  /** Format version; a reader refuses versions it does not know. */
  readonly version: SessionFormatVersion
  /** Session id (also the file name stem). */
  readonly id: string
  /** ISO timestamp of creation. */
  readonly createdAt: string
  /** Absolute working directory the session was started in. */
  readonly cwd: string
  /** Parent session id for child sessions. */
  readonly parentSession?: string
  /** Set to `subagent` for delegated child sessions. */
  readonly origin?: 'subagent'
  /** 0 for top-level sessions, parent depth + 1 for children. */
  readonly delegationDepth: number
  /** Number of leading events inherited from a parent (forks); absent otherwise. */
  readonly seedLength?: number
}

/**
 * How a surface-eligible event changes the visible surface. `append` adds the event at the end;
 * `replace` removes the surface nodes in the half-open index range `[start, end)` and puts the
 * event in their place (followed by the `reinstate` seqs, when given).
 */
export type SurfaceOp =
  | 'append'
  | {
      readonly op: 'replace'
      readonly start: number
      readonly end: number
      /** Seqs of earlier events put back right after this one (undoing a rewind); absent: none. */
      readonly reinstate?: readonly number[]
    }

/** Why a turn ended. */
export type TurnEndReason = 'completed' | 'blocked' | 'cancelled' | 'error' | 'max-steps'

/** Which inbox queue an item belongs to. */
export type InboxTarget = 'next-step' | 'next-turn'

/** Position of an event inside the loop. */
export interface TurnStep {
  /** 1-based turn number. */
  readonly turn: number
  /** 1-based step number within the turn. */
  readonly step: number
}

/** Payload of `turn/end`. */
export interface TurnEndData {
  /** 1-based turn number. */
  readonly turn: number
  /** Why the turn ended. */
  readonly reason: TurnEndReason
  /** One-line failure message when `reason` is `error`. */
  readonly error?: string
}

/** Payload of `step/end`. */
export interface StepEndData extends TurnStep {
  /** True when the step was cancelled or failed and its additional contexts were discarded. */
  readonly aborted?: boolean
}

/** Payload of `user/message`. */
export interface UserMessageData {
  /** The message, as the model sees it (`content`) with its provenance (`source`). */
  readonly message: UserMessage
  /** Turn that entered it (absent for compaction checkpoints appended outside a turn). */
  readonly turn?: number
  /** Step that entered it. */
  readonly step?: number
}

/** Payload of `assistant/message`. */
export interface AssistantMessageData extends TurnStep {
  /** The assembled response. */
  readonly message: AssistantMessage
  /** Token usage reported by the provider. */
  readonly usage?: Usage
  /** True when the stream was cut off before it finished. */
  readonly interrupted?: boolean
}

/** Payload of `tool/call`. */
export interface ToolCallData extends TurnStep {
  /** Provider call id. */
  readonly callId: string
  /** Tool name as the model wrote it. */
  readonly name: string
  /** Raw JSON argument text. */
  readonly arguments: string
}

/** Payload of `tool/result`. */
export interface ToolResultData extends TurnStep {
  /** The result the model sees. */
  readonly message: ToolResultMessage
}

/**
 * Payload of `agent/inbox/spliced`: an inbox mutation, logged before it takes effect. Removes
 * `removedIds`, then inserts `inserted` at `start` (`-1` meaning the end).
 */
export interface InboxSpliceData {
  /** Which queue changed. */
  readonly target: InboxTarget
  /** Insert position after the removal; `-1` appends. */
  readonly start: number
  /** Ids removed from the queue. */
  readonly removedIds: readonly string[]
  /** Messages inserted. */
  readonly inserted: readonly UserMessage[]
  /**
   * `claimed`: taken by a step; `canceled`: removed without running; `interrupted`: a prompt a
   * person queued before the process stopped, closed when the session was resumed so it never runs
   * by itself (the removed ids may already be out of the queue: claimed but never entered). Absent
   * for plain inserts.
   */
  readonly outcome?: 'claimed' | 'canceled' | 'interrupted'
}

/** Payload of `request/header`. */
export interface RequestHeaderData extends TurnStep {
  /** Model name sent. */
  readonly model: string
  /** Provider id. */
  readonly provider: string
  /** Endpoint the request went to (never the key); absent for providers without one (scripted). `--resume` reuses it. */
  readonly baseUrl?: string
}

/** Payload of `model/retry`: the provider retries a failed request of this step after a delay. */
export interface ModelRetryData extends TurnStep {
  /** The attempt that comes next (2 for the first retry). */
  readonly attempt: number
  /** Attempts allowed in all. */
  readonly maxAttempts: number
  /** Wait before that attempt, in milliseconds. */
  readonly delayMs: number
  /** Stable code of the failure. */
  readonly code: string
  /** HTTP status of the failed attempt, when there was one. */
  readonly status?: number
  /** One line saying what failed. */
  readonly detail: string
  /** True when the failed attempt had streamed output: it was discarded and is not in the log (the step's `assistant/message` is the next attempt's). */
  readonly discarded?: boolean
}

/** Payloads of the core session event types. Plugins add their own types; readers skip unknown ones. */
export interface CoreSessionEventData {
  /** A turn began. */
  'turn/start': { /** 1-based turn number. */ readonly turn: number }
  /** A turn ended. */
  'turn/end': TurnEndData
  /** A step began (after the pre-step waterfall entered a batch). */
  'step/start': TurnStep
  /** A step ended. */
  'step/end': StepEndData
  /** A user-role message entered history. */
  'user/message': UserMessageData
  /** A model response. */
  'assistant/message': AssistantMessageData
  /** A tool call was dispatched. */
  'tool/call': ToolCallData
  /** The final outcome of a tool call. */
  'tool/result': ToolResultData
  /** An inbox mutation. */
  'agent/inbox/spliced': InboxSpliceData
  /** Model and provider of a request, for diagnostics. */
  'request/header': RequestHeaderData
  /** The provider retries the step's request. */
  'model/retry': ModelRetryData
  /** The permission decision of a tool call (who decided, which rule or mode). */
  'tool/permission': ToolPermissionData
}

/** A core event type name. */
export type CoreSessionEventType = keyof CoreSessionEventData

/** Event types that take part in the visible surface. */
export type SurfaceEventType = 'user/message' | 'assistant/message' | 'tool/result'

/** One line of the session log after the header. */
export interface SessionEvent<T extends string = string, D = unknown> {
  /** Event type (core or plugin-owned, namespaced `owner/name`). */
  readonly type: T
  /** Monotonic sequence number, starting at 1, unique within the file. */
  readonly seq: number
  /** ISO timestamp from the session clock. */
  readonly time: string
  /** Payload; JSON only. */
  readonly data: D
  /** Present only on surface-eligible events. */
  readonly surfaceOp?: SurfaceOp
  /** For replacement events: the seqs of the surface nodes this event shadows. */
  readonly sourceEventSeqs?: readonly number[]
}

/** A core event with its typed payload. */
export type CoreSessionEvent = { [K in CoreSessionEventType]: SessionEvent<K, CoreSessionEventData[K]> }[CoreSessionEventType]

/** Read-only view of a session that plugins receive. */
export interface SessionView {
  /** The header line. */
  readonly header: SessionHeader
  /** Every event in log order (a live view that grows with appends; do not mutate, copy to keep a snapshot). */
  readonly events: readonly SessionEvent[]
  /** Seqs of the events the model can currently see, in order (a live view, changed in place by appends and replaces; copy to keep a snapshot). */
  readonly surface: readonly number[]
  /** Increments every time a `replace` changes the surface. */
  readonly replaceGeneration: number
  /** Looks up an event by seq. */
  eventBySeq(seq: number): SessionEvent | undefined
}
