/**
 * Live progress events of an agent, for front ends (terminal chat, ACP, web). They mirror what
 * the session log records but arrive as they happen, including streamed text deltas.
 */
import type { ToolFinalOutcome, TurnEndReason } from '@dsh/contracts'

/** What front ends show of one `@` attachment: the path as typed, and why it was not sent (absent: it was). */
export interface AttachedFile {
  readonly path: string
  readonly refused?: string
}

/** A progress event. */
export type AgentProgress =
  | { /** A model call starts. */ readonly type: 'step-start'; readonly turn: number; readonly step: number }
  | { /** Answer text delta. */ readonly type: 'text'; readonly text: string }
  | { /** Reasoning delta. */ readonly type: 'reasoning'; readonly text: string }
  | {
      /** The model call is retried; with `discarded`, the text and reasoning streamed since `step-start` are void (the next attempt streams the answer anew). */
      readonly type: 'retry'
      readonly attempt: number
      readonly maxAttempts: number
      /** One line saying what failed. */
      readonly detail: string
      readonly discarded: boolean
    }
  | { /** A tool call is about to run. */ readonly type: 'tool-start'; readonly callId: string; readonly name: string; readonly arguments: string }
  | { /** Output of a running tool call (front ends only; the model sees the result). */ readonly type: 'tool-output'; readonly callId: string; readonly text: string }
  | { /** A tool call finished. */ readonly type: 'tool-end'; readonly callId: string; readonly name: string; readonly outcome: ToolFinalOutcome }
  | { /** The files the prompt `@`-mentioned went with it (a `refused` one was named instead, with why). */ readonly type: 'attached'; readonly files: readonly AttachedFile[] }
  | {
      /** An automatic compaction replaced earlier history (the request would not fit): `summary` is the checkpoint text the model has instead. */
      readonly type: 'compacted'
      readonly summary: string
    }
  | { /** The turn ended. */ readonly type: 'turn-end'; readonly turn: number; readonly reason: TurnEndReason }

/** Receives progress events; must not throw. */
export type ProgressListener = (event: AgentProgress) => void
