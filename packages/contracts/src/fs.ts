/**
 * Filesystem port (`ctx.fs`). Every production read and write of workspace files goes through it,
 * so tests can substitute an in-memory or recording implementation.
 *
 * Error behaviour: methods reject with an {@link FsError} (stable `code`) for expected failures;
 * "does not exist" is never an error for `stat`/`lstat` (they resolve `undefined`).
 */

/** A resolved location: the real absolute path plus what to show people. */
export interface FsTarget {
  /** Canonical absolute path (links in the final component followed when `resolve` was asked to). */
  readonly path: string
  /** The path as the caller wrote it, normalised; for messages. */
  readonly displayPath: string
}

/** Opaque version string; changes whenever content may have changed (dev, ino, size, mtime, ctime). */
export type FsVersion = string & { readonly __fsVersion: unique symbol }

/** Node type as seen through a followed stat. */
export type FsNodeType = 'file' | 'directory' | 'other'

/** Metadata of an existing node. */
export interface FsInfo {
  /** File, directory, or anything else (FIFO, socket, device). */
  readonly type: FsNodeType
  /** Size in bytes when known. */
  readonly size?: number
  /** Opaque version for cache invalidation. */
  readonly version: FsVersion
  /**
   * The later of the node's mtime and ctime, in epoch milliseconds (may be fractional), when the
   * provider knows it. Used only to judge whether a node can still change within the same
   * timestamp tick without changing `version` (git's racy-timestamp rule); never for ordering.
   */
  readonly changedAtMs?: number
  /**
   * Identity of the node itself (for a local disk its device and inode numbers), when the
   * provider knows it: equal for every path that reaches the same node (a symbolic link, a hard
   * link, a bind mount), different for distinct nodes, also for two files with equal content.
   * Opaque, compared for equality only, and meaningful only within one process: never persist it
   * (a copy, a restore or a remount can give the same file another identity).
   */
  readonly nodeId?: string
}

/** Metadata of a path without following a final link. */
export interface FsPathInfo {
  /** As {@link FsInfo.type}, plus `symlink` for a link itself. */
  readonly type: FsNodeType | 'symlink'
  /** Size in bytes when known. */
  readonly size?: number
  /** Opaque version. */
  readonly version: FsVersion
  /** As {@link FsInfo.changedAtMs}, of the link itself for a `symlink`. */
  readonly changedAtMs?: number
  /** As {@link FsInfo.nodeId}, of the link itself for a `symlink`. */
  readonly nodeId?: string
}

/** Stable error codes of the fs port. */
export type FsErrorCode =
  | 'FS_NOT_FOUND'
  | 'FS_NOT_A_FILE'
  | 'FS_SPECIAL_FILE'
  | 'FS_TOO_LARGE'
  | 'FS_NOT_UTF8'
  | 'FS_OUTSIDE_ROOTS'
  | 'FS_CONFLICT'
  | 'FS_NO_MATCH'
  | 'FS_AMBIGUOUS_MATCH'
  | 'FS_ABORTED'
  | 'FS_IO'

/** Shape of errors thrown by fs port implementations. */
export interface FsErrorShape extends Error {
  /** Stable code; branch on this, never on the message. */
  readonly code: FsErrorCode
  /** The path involved (display form). */
  readonly path: string
}

/** Options for streaming/whole reads. */
export interface FsReadOptions {
  /** Cancels the read; the promise/iterator rejects with code `FS_ABORTED`. */
  readonly signal?: AbortSignal
  /**
   * Hard cap in bytes. The read stops as soon as more than this many bytes were seen, even when
   * the size was unknown or the file grows, and rejects with `FS_TOO_LARGE`.
   */
  readonly maxBytes?: number
}

/** Options of a read that starts inside a file ({@link FileSystemPort.streamTextFrom}). */
export interface FsReadFromOptions extends FsReadOptions {
  /**
   * Byte offset to start at. It must be the first byte of a UTF-8 character (for example a line
   * start or a character position an earlier read of the same version measured); a BOM is kept as
   * U+FEFF past offset 0. `maxBytes` counts from here.
   */
  readonly startByte: number
  /** Receives the version of the opened file (from the open descriptor) before the first chunk. */
  readonly onOpened?: (version: FsVersion) => void
}

/** Options for edits. */
export interface FsEditSpec {
  /** Exact text to find. Must be non-empty. */
  readonly oldString: string
  /** Replacement text. */
  readonly newString: string
  /** Replace every occurrence; otherwise exactly one occurrence must exist. */
  readonly replaceAll?: boolean
}

/** Result of a write or edit. */
export interface FsWriteResult {
  /** Version after the write. */
  readonly version: FsVersion
  /** Bytes written. */
  readonly bytes: number
  /** Number of replacements (edits only). */
  readonly replacements?: number
  /** True when the file did not exist before. */
  readonly created: boolean
}

/** One directory entry. */
export interface FsDirEntry {
  /** Entry name (no slashes). */
  readonly name: string
  /** Entry type, links reported as `symlink` (not followed). */
  readonly type: FsNodeType | 'symlink'
}

/**
 * What {@link FileSystemPort.readSmallTexts} found at one path. The final component is never
 * followed: a link, like a directory or a special file, is reported and not opened.
 */
export type FsSmallText =
  /** A regular file read whole as UTF-8 (BOM stripped); `info` is of the opened descriptor. */
  | { readonly kind: 'text'; readonly text: string; readonly info: FsPathInfo }
  /** Its version is the one the caller said it knew: not read. */
  | { readonly kind: 'unchanged'; readonly info: FsPathInfo }
  /** Nothing exists there (ENOENT, ENOTDIR). */
  | { readonly kind: 'absent' }
  /** A directory, a link or a FIFO, socket or device: not opened. */
  | { readonly kind: 'not-file'; readonly info: FsPathInfo }
  /** Could not be read: `FS_TOO_LARGE`, `FS_NOT_UTF8`, `FS_IO`, or `FS_CONFLICT` when another node took its place between the look and the open. */
  | { readonly kind: 'failed'; readonly error: FsErrorShape; readonly info?: FsPathInfo }

/** Options of {@link FileSystemPort.readSmallTexts}. */
export interface FsSmallTextOptions {
  /** Largest file read, in bytes; a larger one is `failed` with `FS_TOO_LARGE`. */
  readonly maxBytes: number
  /** Versions the caller already holds the content of, by path: a path still at that version is `unchanged`. */
  readonly known?: ReadonlyMap<string, FsVersion>
  readonly signal?: AbortSignal
}

/** The filesystem service. Implementations must honour `signal` in every method. */
export interface FileSystemPort {
  /** Resolves `path` against `cwd` (default: the process cwd is NOT used; callers pass one) and follows links. Never throws for a missing path: the target of a missing path is its normalised absolute path. */
  resolve(path: string, options: { readonly cwd: string; readonly signal?: AbortSignal }): Promise<FsTarget>
  /** Follows links. `undefined` when nothing exists there (ENOENT, ENOTDIR). Other failures reject with `FS_IO`. */
  stat(path: string, signal?: AbortSignal): Promise<FsInfo | undefined>
  /** Like `stat` but does not follow a final link. */
  lstat(path: string, signal?: AbortSignal): Promise<FsPathInfo | undefined>
  /**
   * The `version` that `stat` would report for each of several paths, in order (`undefined` where
   * nothing exists): one followed stat per path, for checking many (path, expected version) pairs
   * at once. Rejects as `stat` does for the first path that fails (callers then look at the paths
   * one by one). Optional: a caller without it calls `stat` per path; a provider offers it when it
   * can answer a batch without a round trip per path (the local disk: one synchronous loop).
   */
  versions?(paths: readonly string[], signal?: AbortSignal): Promise<readonly (FsVersion | undefined)[]>
  /**
   * Looks at and reads several small files at once (skill files, manifests), in order, one
   * outcome per path; never rejects for one path (its outcome says what went wrong), only for
   * cancellation. Each path is examined without following a final link and opened non-blocking
   * without following one either, and the opened node must be the one examined, so a link, FIFO
   * or device is never opened and a swap between the look and the open is reported, not read.
   * Optional: a caller without it probes and reads each path; a provider offers it when it can
   * answer without a round trip per path (the local disk: one synchronous loop).
   */
  readSmallTexts?(paths: readonly string[], options: FsSmallTextOptions): Promise<readonly FsSmallText[]>
  /**
   * Streams a regular file as UTF-8 text chunks. Opens non-blocking and checks the opened node
   * before reading: FIFOs, sockets, devices and directories reject with `FS_SPECIAL_FILE` /
   * `FS_NOT_A_FILE` without blocking. Invalid UTF-8 rejects with `FS_NOT_UTF8`.
   */
  streamText(path: string, options?: FsReadOptions): AsyncIterable<string>
  /**
   * `streamText` from a byte offset, telling the version of the file it opened: for a reader that
   * keeps positions between reads of an unchanged file (read's line index). Optional: a provider
   * that cannot start mid-file (an editor's buffer) leaves it out, and callers stream from the start.
   */
  streamTextFrom?(path: string, options: FsReadFromOptions): AsyncIterable<string>
  /** Reads a whole regular file as UTF-8 with the same guarantees as `streamText`. */
  readText(path: string, options?: FsReadOptions): Promise<{ readonly text: string; readonly version: FsVersion }>
  /** Lists a directory (sorted by name). */
  listDir(path: string, signal?: AbortSignal): Promise<readonly FsDirEntry[]>
  /** Writes a whole file inside the writable roots (creating parent directories); `FS_OUTSIDE_ROOTS` otherwise. */
  writeText(path: string, content: string, options?: { readonly signal?: AbortSignal }): Promise<FsWriteResult>
  /** Exact-match edit inside the writable roots. `FS_NO_MATCH` / `FS_AMBIGUOUS_MATCH` when the match rule fails. */
  editText(path: string, edit: FsEditSpec, options?: { readonly signal?: AbortSignal }): Promise<FsWriteResult>
  /** Roots that writes are confined to (absolute, canonical). */
  writableRoots(): readonly string[]
  /** Adds a writable root (for example an additional workspace root); returns a disposer. */
  addWritableRoot(root: string): () => void
  /**
   * The port over the same paths that reads straight from this machine's disk, for a tool that
   * reads many files in one call (a search) or hands the paths to another program (ripgrep).
   * Absent when the paths do not name local files (an in-memory port): such a caller then reads
   * through this port. A port whose reads go to an editor (ACP) returns its disk port here, so a
   * search never costs one editor round trip per file (it does not see unsaved editor buffers).
   */
  localDisk?(): FileSystemPort
  /**
   * A view of this filesystem whose writes are confined to `roots()` instead of this port's own
   * writable roots (a session's grant: its working directory, its available additional roots,
   * temp). `roots` is called at every write, so a grant that changes applies at once; it returns
   * absolute paths and must not throw. Everything else behaves as on this port. The view's
   * `writableRoots()` lists `roots()` (canonical) plus roots added to the view itself.
   * Optional: without it a host can only confine writes per process.
   */
  withWritableRoots?(roots: () => readonly string[]): FileSystemPort
}
