/**
 * The project root of a working directory: the nearest directory at most `walkUp` levels up
 * (the cwd itself included) that holds one of the markers (`.git` by default); the cwd when none
 * does or when the filesystem cannot tell.
 */
import { dirname, join } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'

/** Options of {@link findProjectRoot}. */
export interface ProjectRootOptions {
  readonly cwd: string
  readonly markers: readonly string[]
  readonly walkUp: number
  readonly signal?: AbortSignal
}

/** Finds the project root through the fs port. */
export async function findProjectRoot(fs: FileSystemPort, options: ProjectRootOptions): Promise<string> {
  let dir = options.cwd
  for (let level = 0; level <= options.walkUp; level++) {
    for (const marker of options.markers) {
      try {
        if ((await fs.stat(join(dir, marker), options.signal)) !== undefined) return dir
      } catch (error) {
        // An unreadable marker is not a marker; keep looking (cancellation still ends the walk).
        if (options.signal?.aborted === true) throw error
      }
    }
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return options.cwd
}
