/**
 * Directories of one loop instance, built once: the chain from the project root down to the cwd
 * and the directory of each loaded project scope. An instance's root and cwd never change, so
 * neither do these; every pass asks for them, and building them anew cost string operations and
 * allocations per loaded scope per pass (issue 8 item 13). Equal answers also keep their object
 * identity, so per-directory keys can be remembered (`quiet-passes.ts`).
 */
import { absOf, chainDirs, type DirRef } from './directories.ts'
import { decodeScope } from './scope-key.ts'

/** The directories of one instance (see the module comment). */
export class InstanceDirs {
  readonly #root: string
  readonly #cwd: string
  #chain: readonly DirRef[] | undefined
  /** Scope key → its project directory, `null` for a scope that has none (the user-global file). */
  readonly #scopeDirs = new Map<string, DirRef | null>()

  constructor(root: string, cwd: string) {
    this.#root = root
    this.#cwd = cwd
  }

  /** The root-to-cwd chain, broad to specific (`chainDirs`). */
  chain(): readonly DirRef[] {
    this.#chain ??= chainDirs(this.#root, this.#cwd)
    return this.#chain
  }

  /** The directory of project scope `key`; `undefined` for any other scope. */
  ofScope(key: string): DirRef | undefined {
    let dir = this.#scopeDirs.get(key)
    if (dir === undefined) {
      const scope = decodeScope(key)
      dir = scope?.kind === 'project' ? { abs: absOf(this.#root, scope.dir), rel: scope.dir } : null
      this.#scopeDirs.set(key, dir)
    }
    return dir ?? undefined
  }
}
