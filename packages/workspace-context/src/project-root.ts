/**
 * Project root: walk upward from the cwd to the first directory holding any configured marker
 * (a `.git` file or directory both count). Without a marker the cwd itself is the root, so no
 * ancestor outside the project is ever loaded. A marker probe that fails (as opposed to finding
 * nothing) stops the walk at the cwd instead of wandering into an unrelated ancestor project.
 */
import { dirname, join } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { rethrowIfAborted } from './abort.ts'

/** Where the root came from. */
export interface ProjectRoot {
  /** Absolute project root. */
  readonly root: string
  /** `marker` when a marker was found; `cwd` when none was; `probe-failed` when a probe failed. */
  readonly via: 'marker' | 'cwd' | 'probe-failed'
  /** The marker that matched. */
  readonly marker?: string
}

/** Finds the project root for `cwd` (absolute). Rethrows only cancellation. */
export async function findProjectRoot(fs: FileSystemPort, cwd: string, markers: readonly string[], signal?: AbortSignal): Promise<ProjectRoot> {
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const marker of markers) {
      try {
        if ((await fs.stat(join(dir, marker), signal)) !== undefined) return { root: dir, via: 'marker', marker }
      } catch (error) {
        // The marker may or may not be there; walking further could adopt an unrelated
        // ancestor project, so stop and treat the cwd as the root.
        rethrowIfAborted(error, signal)
        return { root: cwd, via: 'probe-failed' }
      }
    }
    if (dirname(dir) === dir) return { root: cwd, via: 'cwd' }
  }
}
