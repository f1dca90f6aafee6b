/**
 * Paths as the client spelled them. dsh works with canonical paths (links resolved); an editor
 * names the session's directories its own way (`/home/me/proj` where the canonical path is
 * `/mnt/disk/proj`). Locations and diffs sent to the client use the client's spelling: a path
 * under a canonical directory is rewritten onto the spelled one, a relative one is resolved
 * against the spelled working directory, anything else is sent as it is.
 */
import { isAbsolute, join, relative, resolve, sep } from 'node:path'

/** One directory in both spellings. */
export interface SpelledDirectory {
  /** Canonical absolute path (what dsh records). */
  readonly canonical: string
  /** Absolute path as the client sent it. */
  readonly spelled: string
}

/** Maps paths of one session onto the client's spelling. */
export class PathSpelling {
  readonly #directories: readonly SpelledDirectory[]

  /** `directories[0]` is the working directory; relative paths resolve against its spelling. */
  constructor(directories: readonly [SpelledDirectory, ...SpelledDirectory[]]) {
    this.#directories = directories
  }

  /** The working directory as the client spelled it. */
  get cwd(): string {
    return this.#directories[0]?.spelled ?? ''
  }

  /** The absolute path to show the client for `path` (relative to the working directory, or absolute). */
  show(path: string): string {
    if (!isAbsolute(path)) return resolve(this.cwd, path)
    const normal = resolve(path)
    for (const { canonical, spelled } of this.#directories) {
      if (normal === canonical) return spelled
      if (normal.startsWith(canonical.endsWith(sep) ? canonical : `${canonical}${sep}`)) return join(spelled, relative(canonical, normal))
    }
    return normal
  }
}
