/**
 * The contract between the `subagent` tool and whatever starts child agents: what the tool asks
 * for and what it gets back. The tool depends only on this, so hosts (and tests) can start
 * children however they like; `createChildStarter` is the standard implementation.
 */
import type { AgentHandle, TurnEndReason } from '@dsh/contracts'

/** One delegation. */
export interface ChildRequest {
  /** The delegating agent. */
  readonly parent: AgentHandle
  /** The task, exactly as the model wrote it. */
  readonly prompt: string
  /** Optional short label the model gave the task. */
  readonly description?: string
  /** Aborts when the parent's step is cancelled; must cancel the child. */
  readonly signal: AbortSignal
  /** The parent's tool call id (recorded in the delegation message source). */
  readonly callId: string
}

/** How a child ended. */
export interface ChildResult {
  /** The child's last answer text ('' when it wrote none). */
  readonly finalText: string
  /** The child session id. */
  readonly sessionId: string
  /** Why its turn ended (`completed` is the only success). */
  readonly reason: TurnEndReason
  /** What went wrong, for `reason: 'error'`. */
  readonly error?: string
}

/** Starts a child agent, runs the delegation to its end and disposes it. */
export type StartChild = (request: ChildRequest) => Promise<ChildResult>
