/**
 * The IPC messages exchanged between the run_code tool (parent) and the snippet process (child).
 *
 * Handshake: the child sends `ready`; the parent answers with `start`. While the snippet runs the
 * child sends one `call` per `tools.<name>(args)` and the parent answers each with a `reply`. The
 * child ends with one `done`. Messages use Node's default JSON serialization.
 */

/** Parent → child: the snippet to run. */
export interface StartMessage {
  readonly type: 'start'
  /** Body of an async function with one parameter, `tools`. */
  readonly code: string
  /** Cap on the rendered return value, applied in the child before it crosses IPC. */
  readonly maxReturnChars: number
}

/** Parent → child: the outcome of one nested call. */
export interface ReplyMessage {
  readonly type: 'reply'
  /** Id of the `call` this answers. */
  readonly id: number
  /** True when the pipeline reported an error (the snippet's promise rejects). */
  readonly isError: boolean
  /** Exactly the text the pipeline produced. */
  readonly content: string
  /** Pipeline status (`ok`, `unknown-tool`, `denied`, …) or `refused` for calls run_code refuses. */
  readonly status: string
}

/** Child → parent: the child is listening. */
export interface ReadyMessage {
  readonly type: 'ready'
}

/** Child → parent: the snippet called `tools.<name>(args)`. */
export interface CallMessage {
  readonly type: 'call'
  /** Per-run sequence number, starting at 1. */
  readonly id: number
  /** Tool name as the snippet wrote it. */
  readonly name: string
  /** Arguments as the snippet passed them (after JSON round-trip). */
  readonly args: unknown
}

/** A snippet error as the child describes it. */
export interface SnippetError {
  /** `error.name` (`SyntaxError`, `TypeError`, `ToolCallError`, …) or `Thrown` for non-errors. */
  readonly name: string
  /** `error.message`, or the rendered thrown value. */
  readonly message: string
  /** 1-based line in the snippet of the innermost snippet frame, when known. */
  readonly line?: number
  /** 1-based column of that frame, when known. */
  readonly column?: number
  /** For `ToolCallError`: the nested tool that failed. */
  readonly tool?: string
}

/** Child → parent: the snippet finished. */
export type DoneMessage =
  | {
      readonly type: 'done'
      readonly ok: true
      /** The rendered return value (strings verbatim, other values as JSON); absent for `undefined`. */
      readonly returned?: string
    }
  | {
      readonly type: 'done'
      readonly ok: false
      /** `compile`: the code did not parse; `run`: it threw or rejected. */
      readonly phase: 'compile' | 'run'
      readonly error: SnippetError
    }

/** Anything the child sends. */
export type ChildMessage = ReadyMessage | CallMessage | DoneMessage

/** Narrows an IPC payload from the child; anything else is ignored by the parent. */
export function isChildMessage(value: unknown): value is ChildMessage {
  if (typeof value !== 'object' || value === null) return false
  const type = (value as { type?: unknown }).type
  if (type === 'ready') return true
  if (type === 'call') {
    const call = value as { id?: unknown; name?: unknown }
    return typeof call.id === 'number' && typeof call.name === 'string'
  }
  return type === 'done' && typeof (value as { ok?: unknown }).ok === 'boolean'
}
