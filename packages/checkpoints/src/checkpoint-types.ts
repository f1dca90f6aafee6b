/**
 * Contracts of the checkpoint store: what a turn's checkpoint records about each file, what a
 * rewind records so it can be undone, and the journal an interrupted rewind leaves behind. All of
 * them are JSON files under `$DSH_HOME/checkpoints/<session-id>/`.
 */

/** What stood at a path at one moment. */
export type FileState =
  /** Nothing (the file did not exist). */
  | { readonly kind: 'absent' }
  /** A regular file whose content is the object `blob` (sha-256 hex) in the session's store. */
  | { readonly kind: 'file'; readonly blob: string; readonly size: number; readonly mode: number }
  /** A symbolic link to `target`. */
  | { readonly kind: 'symlink'; readonly target: string }
  /**
   * Something whose content was not kept: a file over `checkpoints.maxFileBytes`, a file met after
   * the session's `checkpoints.maxBytes` budget ran out, or not a regular file. Named, never restored.
   */
  | { readonly kind: 'not-kept'; readonly reason: NotKeptReason; readonly size: number; readonly mode: number }

/** Why a content was not kept. */
export type NotKeptReason = 'too-large' | 'over-budget' | 'not-a-file' | 'first-look-limit'

/** One file a turn changed. */
export interface FileChange {
  /** Absolute path (inside one of the checkpoint's roots). */
  readonly path: string
  /** The state before the turn first changed it. */
  readonly before: FileState
  /** The state the turn last left it in (what a rewind expects to find); absent until known. */
  readonly after?: FileState
  /** Which tool changed it first: `write`, `edit`, `bash`, `run_code`, … */
  readonly by: string
}

/** The checkpoint of one turn: every file the turn changed, as it was before the turn. */
export interface TurnCheckpoint {
  /** Format version. */
  readonly version: 1
  /** 1-based turn number in the session. */
  readonly turn: number
  /** The session's writable roots when the turn ran (a rewind writes only inside them). */
  readonly roots: readonly string[]
  /** Changed files, keyed by absolute path. */
  readonly files: Readonly<Record<string, FileChange>>
  /** Bytes of new objects this turn added to the store. */
  readonly bytesAdded: number
  /** Roots with more than 100,000 files: what the shell changed there is not captured. */
  readonly untrackedRoots?: readonly string[]
  /** Set when the per-session budget ran out during the turn: later pre-images were not kept. */
  readonly overBudget?: boolean
}

/** One file a rewind changes: what it puts there, and what was there before (for undo and roll-back). */
export interface RewindFile {
  /** Absolute path. */
  readonly path: string
  /** What the rewind puts at the path. */
  readonly target: FileState
  /** What stood there just before the rewind. */
  readonly prior: FileState
}

/** A completed rewind (its file is the commit point: present means the rewind happened). */
export interface RewindRecord {
  /** Format version. */
  readonly version: 1
  /** Unique id (also named in the conversation event). */
  readonly id: string
  /** ISO time. */
  readonly time: string
  /** `rewind` puts turns back; `undo` reverses the rewind named in `undoes`. */
  readonly kind: 'rewind' | 'undo'
  /** The rewind this one undoes. */
  readonly undoes?: string
  /** First turn rewound (kind `rewind`). */
  readonly toTurn?: number
  /** The session's latest turn when this was done (an undo is refused once later turns ran). */
  readonly lastTurn: number
  /** Turns this rewind took back (or, for an undo, gave back). */
  readonly turns: readonly number[]
  /** Whether files were changed. */
  readonly code: boolean
  /** Whether the conversation was changed. */
  readonly conversation: boolean
  /** Surface nodes the conversation rewind removed (an undo reinstates them). */
  readonly removedNodes: readonly number[]
  /** Files changed. */
  readonly files: readonly RewindFile[]
}

/** The journal of a rewind in progress: the next run completes it (record present) or rolls it back. */
export interface RewindJournal {
  /** Format version. */
  readonly version: 1
  /** The record that commits it. */
  readonly record: RewindRecord
}
