/**
 * Disposable temporary directory trees built from a declarative structure.
 *
 * `{ 'a/AGENTS.md': 'text', 'b/': null }` creates a file and an empty directory. Use with
 * `await using tree = await tempTree({...})` or call `tree.dispose()`.
 */
import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** Paths (relative, `/`-separated) to file contents; a trailing `/` with `null` makes a directory. */
export type TreeSpec = Readonly<Record<string, string | Uint8Array | null>>

/** A created tree. */
export interface TempTree extends AsyncDisposable {
  /** Canonical absolute root. */
  readonly root: string
  /** Absolute path of a relative entry. */
  path(relative: string): string
  /** Writes (or overwrites) files after creation. */
  write(spec: TreeSpec): Promise<void>
  /** Removes the tree. Safe to call twice. */
  dispose(): Promise<void>
}

/** Creates a temp tree under the OS temp directory. */
export async function tempTree(spec: TreeSpec = {}, prefix = 'dsh-test-'): Promise<TempTree> {
  const root = await realpath(await mkdtemp(join(tmpdir(), prefix)))
  const write = async (entries: TreeSpec): Promise<void> => {
    for (const [relative, content] of Object.entries(entries)) {
      const target = join(root, relative)
      if (content === null) {
        await mkdir(target, { recursive: true })
        continue
      }
      await mkdir(dirname(target), { recursive: true })
      await writeFile(target, content)
    }
  }
  await write(spec)
  // Retried: a process the test started may still be removing its own files inside (ENOTEMPTY).
  const dispose = () => rm(root, { recursive: true, force: true, maxRetries: 5 })
  return {
    root,
    path: (relative) => join(root, relative),
    write,
    dispose,
    [Symbol.asyncDispose]: dispose,
  }
}
