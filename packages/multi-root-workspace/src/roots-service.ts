/**
 * The `workspaceRoots` service: one {@link SessionRoots} per live session view, created on first
 * use with the session's canonical working directory as its primary root. A delegated child finds
 * its parent's roots by session id while the parent lives in this process.
 */
import { realpathSync } from 'node:fs'
import type { SessionView, WorkspaceRootsService } from '@dsh/contracts'
import type { RootRegistry } from './root-registry.ts'
import { SessionRoots } from './session-roots.ts'

/** Options of {@link RootsService}. */
export interface RootsServiceOptions {
  readonly registry: RootRegistry
  /** Clock for `addedAt`. */
  readonly clock?: () => Date
  /** OS home for `~` (tests). */
  readonly home?: string | undefined
  /** Diagnostics of the sessions' listings (an unreadable registry). */
  readonly warn?: ((line: string) => void) | undefined
}

function canonicalCwd(cwd: string): string {
  try {
    return realpathSync.native(cwd)
  } catch {
    // A working directory that cannot be resolved now is still the session's primary root as recorded.
    return cwd
  }
}

/** Roots of every live session of one host. */
export class RootsService implements WorkspaceRootsService {
  readonly #options: RootsServiceOptions
  readonly #sessions = new WeakMap<SessionView, SessionRoots>()
  readonly #byId = new Map<string, WeakRef<SessionRoots>>()

  constructor(options: RootsServiceOptions) {
    this.#options = options
  }

  /** The registry behind the service. */
  get registry(): RootRegistry {
    return this.#options.registry
  }

  session(session: SessionView): SessionRoots {
    const known = this.#sessions.get(session)
    if (known !== undefined) return known
    const parentId = session.header.parentSession
    const roots = new SessionRoots({
      registry: this.#options.registry,
      sessionId: session.header.id,
      primary: canonicalCwd(session.header.cwd),
      parent: parentId === undefined ? undefined : () => this.#byId.get(parentId)?.deref(),
      ...(this.#options.clock === undefined ? {} : { clock: this.#options.clock }),
      home: this.#options.home,
      warn: this.#options.warn,
    })
    this.#sessions.set(session, roots)
    for (const [id, ref] of this.#byId) if (ref.deref() === undefined) this.#byId.delete(id)
    this.#byId.set(session.header.id, new WeakRef(roots))
    return roots
  }
}
