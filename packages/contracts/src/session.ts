/**
 * Session log contracts: the JSONL header, the event envelope, core event payloads and the
 * visible-surface operations that compaction uses.
 */
import type { AssistantMessage, ToolResultMessage, Usage, UserMessage } from './messages.ts'

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
 * event in their place.
 */
export type SurfaceOp = 'append' | { readonly op: 'replace'; readonly start: number; readonly end: number }

/** Why a turn ended. */
export type TurnEndReason = 'completed' | 'blocked' | 'cancelled' | 'error' | 'max-steps'

/** Which inbox queue an item belongs to. */
export type InboxTarget = 'next-step' | 'next-turn'

/** Payloads of the core session event types. Plugins add their own types; readers skip unknown ones. */
export interface CoreSessionEventData {
  /** A turn began. */
  'turn/start': { readonly turn: number }
  /** A turn ended. */
  'turn/end': { readonly turn: number; readonly reason: TurnEndReason; readonly error?: string }
  /** A step began (after the pre-step waterfall entered a batch). */
  'step/start': { readonly turn: number; readonly step: number }
  /** A step ended; `aborted` when its additional contexts were discarded. */
  'step/end': { readonly turn: number; readonly step: number; readonly aborted?: boolean }
  /** A user-role message entered history. */
  'user/message': { readonly message: UserMessage; readonly turn?: number; readonly step?: number }
  /** A model response. */
  'assistant/message': {
    readonly turn: number
    readonly step: number
    readonly message: AssistantMessage
    readonly usage?: Usage
    readonly interrupted?: boolean
  }
  /** A tool call was dispatched. `arguments` is the raw JSON text. */
  'tool/call': { readonly turn: number; readonly step: number; readonly callId: string; readonly name: string; readonly arguments: string }
  /** The final outcome of a tool call. */
  'tool/result': { readonly turn: number; readonly step: number; readonly message: ToolResultMessage }
  /**
   * An inbox mutation, logged before it takes effect. Removes `removedIds` then inserts `inserted`
   * at `start` (`-1` meaning the end). A claim is a removal with `outcome: 'claimed'`.
   */
  'agent/inbox/spliced': {
    readonly target: InboxTarget
    readonly start: number
    readonly removedIds: readonly string[]
    readonly inserted: readonly UserMessage[]
    readonly outcome?: 'claimed' | 'canceled'
  }
  /** Model and reason of a request, for diagnostics. */
  'request/header': { readonly turn: number; readonly step: number; readonly model: string; readonly provider: string }
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
  /** Every event in log order (a snapshot; do not mutate). */
  readonly events: readonly SessionEvent[]
  /** Seqs of the events the model can currently see, in order. */
  readonly surface: readonly number[]
  /** Increments every time a `replace` changes the surface. */
  readonly replaceGeneration: number
  /** Looks up an event by seq. */
  eventBySeq(seq: number): SessionEvent | undefined
}
