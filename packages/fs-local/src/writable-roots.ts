/**
 * Where writes may go. Two kinds of root sets share one check:
 * - {@link WritableRoots}: a registry of roots (the port's own, process-wide), each `add` with its
 *   own disposer;
 * - {@link GrantedRoots}: a session's grant, a function evaluated at every write (so a root that
 *   is added, goes missing or is redirected changes what may be written at once), plus roots
 *   added to that view.
 * Containment is checked on canonical paths (links resolved) at a path-separator boundary, and a
 * refusal names every root that would have been allowed.
 */
import { isAbsolute } from 'node:path'
import { canonicalPath, isInside, requireAbsolute } from './canonical-path.ts'
import { FsError } from './fs-error.ts'

/** A set of canonical roots that writes are confined to. */
export interface RootSet {
  /** Distinct canonical roots, in order. */
  list(): readonly string[]
  /**
   * Throws `FS_OUTSIDE_ROOTS` unless canonical `target` lies inside a root; returns the outermost
   * root that contains it (the one whose own parent no other root can change).
   */
  requireInside(target: string, displayPath: string): string
  /** Adds an absolute root (canonicalised now); the disposer removes exactly this registration. */
  add(root: string): () => void
}

function requireInsideAny(roots: readonly string[], target: string, displayPath: string): string {
  const containing = roots.filter((root) => isInside(root, target)).toSorted((a, b) => a.length - b.length)[0]
  if (containing !== undefined) return containing
  const where = roots.length === 0 ? 'no writable roots are configured' : `writable roots: ${roots.join(', ')}`
  throw new FsError('FS_OUTSIDE_ROOTS', displayPath, `outside the writable roots (${where})`)
}

/** Mutable registry of writable roots; each `add` returns its own disposer. */
export class WritableRoots implements RootSet {
  readonly #entries: string[] = []

  add(root: string): () => void {
    requireAbsolute(root, 'writable root')
    const canonical = canonicalPath(root)
    this.#entries.push(canonical)
    let disposed = false
    return () => {
      if (disposed) return
      disposed = true
      const index = this.#entries.indexOf(canonical)
      if (index !== -1) this.#entries.splice(index, 1)
    }
  }

  list(): readonly string[] {
    return [...new Set(this.#entries)]
  }

  requireInside(target: string, displayPath: string): string {
    return requireInsideAny(this.#entries, target, displayPath)
  }
}

/** A grant evaluated at every check: `grant()` (canonicalised) followed by roots added to it. */
export class GrantedRoots implements RootSet {
  readonly #grant: () => readonly string[]
  readonly #added = new WritableRoots()

  constructor(grant: () => readonly string[]) {
    this.#grant = grant
  }

  add(root: string): () => void {
    return this.#added.add(root)
  }

  list(): readonly string[] {
    // A relative entry is a caller bug; it can never contain a canonical target, so it is left out.
    const granted = this.#grant().filter((root) => isAbsolute(root)).map((root) => canonicalPath(root))
    return [...new Set([...granted, ...this.#added.list()])]
  }

  requireInside(target: string, displayPath: string): string {
    return requireInsideAny(this.list(), target, displayPath)
  }
}
