/**
 * Workspace roots service (`ctx.workspaceRoots`, optional; read it with
 * `ctx.get('workspaceRoots')`): the primary root of a live session (its working directory) and
 * the additional roots it may work in, each with a state re-checked on the disk at every listing.
 * Provided by the multi-root-workspace plugin. Without the service a session has its primary root
 * only, and consumers behave exactly as they would with no additional roots.
 */
import type { SessionView } from './session.ts'

/** State of an additional root. Only `available` roots are writable, trusted and get instructions. */
export type WorkspaceRootState =
  /** The path is a directory and still resolves to the canonical path recorded when it was added. */
  | 'available'
  /** Nothing usable is at the path now (gone, not a directory, or not examinable). Kept; granted again once the directory is back. */
  | 'missing'
  /** The path now resolves to another directory than the recorded one (for example a re-pointed link). Kept, never granted; adding the path again records the new target. */
  | 'redirected'
  /** The stored record is malformed or conflicts with another record (a duplicate id). Kept as it is; it can only be removed. */
  | 'invalid'

/** Where an additional root comes from. */
export type WorkspaceRootOrigin =
  /** Registered for the primary root in `$DSH_HOME` (persisted; shared by every session there). */
  | 'registry'
  /** Given for one session only (`--add-dir`, an editor's additional directories); never persisted. */
  | 'session'

/** One additional root as a listing sees it. Immutable snapshot. */
export interface WorkspaceRoot {
  /** Stable id: the registry record's id, or `session-<n>` for a session-only root. */
  readonly id: string
  /** 1-based position in the listing it came from (what `remove 2` refers to). */
  readonly ordinal: number
  /** Absolute path as it was added (links not resolved); what people and the model are shown. */
  readonly path: string
  /** Canonical path recorded when the root was added. Grants, instruction reads and scope keys use it, and only while `path` still resolves to it. Empty for an `invalid` record that has none. */
  readonly recordedPath: string
  /** Optional short name shown next to the path. */
  readonly alias?: string
  /** ISO timestamp of when the root was added (or last re-recorded). */
  readonly addedAt: string
  /** Registry or session-only. */
  readonly origin: WorkspaceRootOrigin
  /** State found by this listing. */
  readonly state: WorkspaceRootState
  /** One line saying why the root is not `available` (absent when it is). */
  readonly detail?: string
}

/** The roots of one primary root at one moment. */
export interface WorkspaceRootsListing {
  /** Canonical primary root (the session's working directory). */
  readonly primary: string
  /** Additional roots: registered ones in registry order, then session-only ones in the order they were added. */
  readonly roots: readonly WorkspaceRoot[]
  /**
   * Set when the registry could not be read (corrupt, unreadable, or written by a newer dsh): the
   * registered roots are left out of `roots`, and registry mutations are refused until the file is
   * repaired. One line naming the file, the problem and what to do; the harness keeps running.
   */
  readonly registryProblem?: string
}

/** Stable codes of workspace-root failures (validation rules are listed in the order they are checked). */
export type WorkspaceRootErrorCode =
  /** The path is not absolute (after `~` expansion). */
  | 'not-absolute'
  /** Nothing exists at the path. */
  | 'missing'
  /** The path exists but is not a directory. */
  | 'not-a-directory'
  /** The path is the primary root itself. */
  | 'equals-primary'
  /** The path is inside the primary root, or contains it. */
  | 'primary-overlap'
  /** The directory is already an additional root. */
  | 'duplicate'
  /** The path is inside another additional root, or contains one. */
  | 'nested'
  /** An alias longer than 120 characters, blank, or with control characters. */
  | 'invalid-alias'
  /** No root matches the reference (number, path or id). */
  | 'not-found'
  /** The reference is malformed or ambiguous (an id shared by several invalid records). */
  | 'invalid-ref'
  /** The registry file cannot be read; nothing is written until it is repaired. */
  | 'storage-unavailable'
  /** Another process held the registry lock for too long. */
  | 'registry-busy'

/** Shape of the errors the service rejects with; branch on `code`, never on the message. */
export interface WorkspaceRootsErrorShape extends Error {
  /** Stable code. */
  readonly code: WorkspaceRootErrorCode
}

/** Options of adding a root. */
export interface AddRootOptions {
  /** Alias to record with the root. */
  readonly alias?: string
}

/**
 * The roots of one live session. Listings re-check the registry and the disk; they never throw
 * (an unreadable registry is reported in `registryProblem`). Mutations are serialised across
 * processes and reject with a {@link WorkspaceRootsErrorShape}.
 */
export interface SessionWorkspaceRoots {
  /** The session's id. */
  readonly sessionId: string
  /** Canonical primary root (the session's working directory). */
  readonly primary: string
  /** Every additional root with its current state. */
  list(): WorkspaceRootsListing
  /**
   * Canonical paths of the `available` additional roots, re-checked now. Synchronous: the write
   * path calls it at every write to confine the session's tools.
   */
  writableRoots(): readonly string[]
  /** Validates `path` (absolute; `~` expands) and registers it for the primary root, persisted. */
  add(path: string, options?: AddRootOptions): Promise<WorkspaceRoot>
  /** Validates `path` like `add` and grants it to this session only (lost when the session's process ends). */
  addForSession(path: string, options?: AddRootOptions): Promise<WorkspaceRoot>
  /** Removes the root a reference names: a 1-based number of the listing, a path, or an id. */
  remove(reference: string): Promise<WorkspaceRoot>
  /** Sets (or, with `undefined`, clears) the alias of the root a reference names. */
  alias(reference: string, alias: string | undefined): Promise<WorkspaceRoot>
  /**
   * Calls `listener` with the new listing whenever a listing or a mutation finds the roots changed
   * (ids, paths, aliases or states). Returns a disposer. Listeners must not throw; a throwing one is
   * dropped from that notification only.
   */
  onChange(listener: (listing: WorkspaceRootsListing) => void): () => void
}

/** The workspace roots service. */
export interface WorkspaceRootsService {
  /**
   * The roots of a live session; the session's header `cwd` is its primary root. Returns the same
   * object for the same session view. A delegated child session (header `parentSession`) also sees
   * its parent's session-only roots while the parent lives in this process.
   */
  session(session: SessionView): SessionWorkspaceRoots
}
