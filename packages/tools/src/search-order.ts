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

/** Code-unit order of two strings (the order of path-ordered results and of newest-first ties). */
export const codeUnitOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The first `count` of `items` in code-unit order — what one page of a path-ordered result
 * needs — without sorting all of them: a bounded sorted buffer that most items pass by after
 * one comparison with its last. A full sort when `count` is a large share of the items.
 */
export function firstInPathOrder(items: readonly string[], count: number): string[] {
  if (count <= 0) return []
  if (count * 8 >= items.length) return items.toSorted(codeUnitOrder).slice(0, count)
  const kept: string[] = []
  for (const item of items) {
    if (kept.length === count && item >= (kept[count - 1] ?? '')) continue
    let low = 0
    let high = kept.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((kept[middle] ?? '') <= item) low = middle + 1
      else high = middle
    }
    kept.splice(low, 0, item)
    if (kept.length > count) kept.pop()
  }
  return kept
}
