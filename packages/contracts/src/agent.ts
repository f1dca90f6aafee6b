/**
 * Agent handle and inbox view: what plugins and tools may see and do with a running agent.
 */
import type { UserMessage } from './messages.ts'
import type { ToolPermissionData } from './permission.ts'
import type { InboxTarget, SessionView } from './session.ts'

/** Read-only view of the durable inbox. */
export interface InboxView {
  /** Items queued for the next step (in order). */
  readonly nextStep: readonly UserMessage[]
  /** Items queued for the next turn (in order). */
  readonly nextTurn: readonly UserMessage[]
  /** True when anything is queued. */
  readonly hasPending: boolean
}

/** Durable inbox mutations available to plugins. Each is logged before it takes effect. */
export interface InboxMutations extends InboxView {
  /** Appends at the end of `target`. */
  append(target: InboxTarget, message: UserMessage): Promise<void>
  /** Inserts at the front of `target`. */
  prepend(target: InboxTarget, message: UserMessage): Promise<void>
  /** Removes the item with `id` from whichever queue holds it; false when absent. */
  remove(id: string): Promise<boolean>
}

/** Options of a compaction request. */
export interface CompactOptions {
  /** Summary text; when absent the deterministic summary is used. */
  readonly summary?: string
  /** How the summary was produced. */
  readonly summarizer?: 'deterministic' | 'model'
}

/** A live agent bound to one session. */
export interface AgentHandle {
  /** Session id. */
  readonly id: string
  /** Working directory (absolute, canonical). */
  readonly cwd: string
  /** Live view of the session log. */
  readonly session: SessionView
  /** The durable inbox. */
  readonly inbox: InboxMutations
  /** 0 for top-level agents. */
  readonly delegationDepth: number
  /** Queues for the next step without waking an idle agent. */
  inject(message: UserMessage): Promise<void>
  /** Queues for the next step and wakes an idle agent. */
  steer(message: UserMessage): Promise<void>
  /** Queues for the next turn (wakes an idle agent). */
  followup(message: UserMessage): Promise<void>
  /** Replaces visible history before the last turn with a checkpoint. Returns false when nothing to compact. */
  compact(options?: CompactOptions): Promise<boolean>
  /**
   * Appends a `tool/permission` event to the session (durable before the call it describes runs).
   * Optional: handles outside the runtime's agents may leave it out, and then nothing is recorded.
   */
  recordPermission?(data: ToolPermissionData): void
  /**
   * Appends a plugin-owned event (`type` namespaced `owner/name`, `data` JSON only) to the session
   * log; it is committed and published on `session/event` like every other. Optional: handles
   * outside the runtime's agents may leave it out, and then nothing is recorded.
   */
  recordEvent?(type: string, data: unknown): void
}

/** A plugin event (`owner/name`, JSON data) a front end records with a prompt, just before its turn. */
export interface PromptEvent {
  readonly type: string
  readonly data: unknown
}

/**
 * A typed prompt after `/name` expansion: the text the model gets and the events to record with
 * it (a trusted skill's `skills/grant`); a plain prompt is itself with no events.
 */
export interface ExpandedPrompt {
  readonly text: string
  readonly events: readonly PromptEvent[]
}

/** Where a front end lists or expands `/name` commands. */
export interface CommandPlace {
  /** Canonical working directory of the session. */
  readonly cwd: string
  /** The session's canonical additional roots: their top-level skill folders count too. */
  readonly additionalRoots?: readonly string[]
  /** The open session: skills of the nested directories its catalog announced count too (qualified names). */
  readonly session?: SessionView
}
