/**
 * The set of writable roots: canonical absolute directories that writes are confined to.
 * Containment is checked on canonical paths (links resolved) at a path-separator boundary.
 */
import { canonicalPath, isInside, requireAbsolute } from './canonical-path.ts'
import { FsError } from './fs-error.ts'

/** Mutable registry of writable roots; each `add` returns its own disposer. */
export class WritableRoots {
  readonly #entries: string[] = []

  /** Adds an absolute root (canonicalised now); the disposer removes exactly this registration. */
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

  /** Distinct canonical roots in registration order. */
  list(): readonly string[] {
    return [...new Set(this.#entries)]
  }

  /** Throws `FS_OUTSIDE_ROOTS` unless canonical `target` lies inside a root. */
  requireInside(target: string, displayPath: string): void {
    if (this.#entries.some((root) => isInside(root, target))) return
    const roots = this.list()
    const where = roots.length === 0 ? 'no writable roots are configured' : `writable roots: ${roots.join(', ')}`
    throw new FsError('FS_OUTSIDE_ROOTS', displayPath, `outside the writable roots (${where})`)
  }
}
