/**
 * The order of search results: most recently modified first (what was just edited is most
 * likely what the model looks for), ties by path. Modification times come from `node:fs` (the
 * fs port's `FsInfo` carries none); when the port is not the local disk every time reads as 0
 * and the order is by path.
 */
import { statSync } from 'node:fs'

/** Modification time of `path`, 0 when it cannot be read (it then sorts last; nothing is lost). */
export function mtimeOf(path: string, onDisk: boolean): number {
  if (!onDisk) return 0
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0
  } catch {
    // A race or a permission problem on the way: the file only sorts last.
    return 0
  }
}

/** `items` sorted newest first, ties by `key` in code-unit order. */
export function newestFirst<T>(items: readonly T[], absolute: (item: T) => string, key: (item: T) => string, onDisk: boolean): T[] {
  const timed = items.map((item) => ({ item, mtime: mtimeOf(absolute(item), onDisk), key: key(item) }))
  timed.sort((a, b) => b.mtime - a.mtime || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return timed.map((entry) => entry.item)
}
