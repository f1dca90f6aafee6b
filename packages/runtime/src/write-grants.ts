/**
 * Per-session write grants (ARCHITECTURE §3.6). One host may serve many sessions, so what a tool
 * call may write belongs to its session: the session's working directory, the roots every session
 * shares (the OS temp directory in the CLI) and the session's available additional roots from the
 * optional `workspaceRoots` service, evaluated at every write. Tools receive that view of the
 * filesystem; the port itself keeps its process-wide roots for plugins that write outside a tool
 * call. A port without per-session views falls back to adding the working directory to its
 * process-wide roots (the behaviour before grants were per session).
 */
import type { Context } from '@deepseek-ai/cordis'
import type { FileSystemPort, SessionView } from '@dsh/contracts'

/** What a session's tools write through, and what to release when its agent goes. */
export interface SessionFileSystem {
  /** The filesystem handed to the session's tools (`undefined` without a filesystem). */
  readonly fs: FileSystemPort | undefined
  /** Releases what was acquired for the session. Idempotent. */
  readonly release: () => void
}

/** Options of {@link sessionFileSystem}. */
export interface SessionFileSystemOptions {
  /** Plugin host context (reads the `workspaceRoots` service lazily, at every write). */
  readonly ctx: Context
  /** The host's filesystem. */
  readonly fs: FileSystemPort | undefined
  /** The session whose tools will write. */
  readonly session: SessionView
  /** Roots every session may write besides its own (absolute). */
  readonly shared: readonly string[]
}

/** The filesystem a session's tools write through. */
export function sessionFileSystem(options: SessionFileSystemOptions): SessionFileSystem {
  const { fs, session, ctx, shared } = options
  if (fs === undefined) return { fs, release: () => undefined }
  // Plugins writing through the host port (outside any tool call) keep the session's directory.
  const release = fs.addWritableRoot(session.header.cwd)
  if (fs.withWritableRoots === undefined) return { fs, release }
  const grant = (): readonly string[] => {
    const service = ctx.get('workspaceRoots')
    return [session.header.cwd, ...shared, ...(service === undefined ? [] : service.session(session).writableRoots())]
  }
  return { fs: fs.withWritableRoots(grant), release }
}
