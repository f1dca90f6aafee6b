/**
 * Fuzzy ranking of paths for `@` completion: a path matches when the query's characters appear
 * in it in order (case-insensitive). Matches score higher when they start a path segment or a
 * word (after `/`, `-`, `_`, `.`, or a lower-to-upper case change), run on from the previous
 * match, or fall in the file's own name; a shorter path wins a tie, then the alphabet. The best
 * alignment is found by dynamic programming over query × path, so `@srvts` ranks
 * `src/server.ts` above `scripts/reverse-ts.md` whatever comes first in the listing.
 */

/** Most characters of a query that are ranked (the rest of a longer one is ignored). */
const MAX_QUERY = 64
/** Paths longer than this are not ranked (a path made to be slow). */
const MAX_PATH = 512

const SEGMENT_START = 8
const WORD_START = 6
const RUN = 8
const BASENAME = 2

function boundaryBonus(path: string, at: number): number {
  if (at === 0) return SEGMENT_START
  const before = path[at - 1] ?? ''
  if (before === '/') return SEGMENT_START
  if (before === '-' || before === '_' || before === '.' || before === ' ') return WORD_START
  const here = path[at] ?? ''
  return before === before.toLowerCase() && here !== here.toLowerCase() ? WORD_START : 0
}

/** Two rows of the alignment table, reused across the paths of one ranking. */
interface Scratch {
  best: Float64Array
  next: Float64Array
}

const newScratch = (): Scratch => ({ best: new Float64Array(MAX_PATH), next: new Float64Array(MAX_PATH) })

/** The score of `path` for `query` (already lower-cased), or `undefined` when it does not match. */
export function fuzzyScore(query: string, path: string, scratch: Scratch = newScratch()): number | undefined {
  if (query === '') return 0
  if (path.length > MAX_PATH) return undefined
  const lower = path.toLowerCase()
  const q = query.slice(0, MAX_QUERY)
  // Quick rejection: the characters in order at all.
  let scan = 0
  for (let i = 0; i < q.length; i++) {
    scan = lower.indexOf(q[i] ?? '', scan)
    if (scan < 0) return undefined
    scan++
  }
  // The last segment is the name (a directory's path ends in `/`).
  const nameStart = path.lastIndexOf('/', path.endsWith('/') ? path.length - 2 : path.length) + 1
  const n = path.length
  // best[j]: the best score of the query prefix so far whose last character matched path index j.
  // Row i only looks from one past the first match of row i - 1 (nothing earlier can follow it).
  let { best, next } = scratch
  let from = lower.indexOf(q[0] ?? '')
  for (let i = 0; i < q.length; i++) {
    let bestBefore = Number.NEGATIVE_INFINITY
    let first = -1
    for (let j = from; j < n; j++) {
      const previous = i > 0 ? (best[j - 1] ?? Number.NEGATIVE_INFINITY) : Number.NEGATIVE_INFINITY
      bestBefore = Math.max(bestBefore, previous)
      if (lower[j] !== q[i] || (i > 0 && bestBefore === Number.NEGATIVE_INFINITY)) {
        next[j] = Number.NEGATIVE_INFINITY
        continue
      }
      if (first < 0) first = j
      const base = 1 + boundaryBonus(path, j) + (j >= nameStart ? BASENAME : 0)
      next[j] = base + (i === 0 ? 0 : Math.max(bestBefore, previous + RUN))
    }
    ;[best, next] = [next, best]
    if (first < 0) return undefined
    from = first + 1
    if (i === q.length - 1) from = first
  }
  let top = Number.NEGATIVE_INFINITY
  for (let j = from; j < n; j++) top = Math.max(top, best[j] ?? Number.NEGATIVE_INFINITY)
  return Number.isFinite(top) ? top - path.length / 100 : undefined
}

interface Scored {
  readonly path: string
  readonly score: number
}

/** Whether `a` ranks before `b`: a higher score, then a shorter path, then the alphabet. */
const before = (a: Scored, b: Scored): boolean => a.score > b.score || (a.score === b.score && (a.path.length < b.path.length || (a.path.length === b.path.length && a.path < b.path)))

/** The `limit` best of `paths` for `query`, best first (kept in a sorted array of `limit`: no sort of every match). */
export function rankPaths(query: string, paths: Iterable<string>, limit: number): string[] {
  const q = query.toLowerCase()
  const scratch = newScratch()
  const top: Scored[] = []
  for (const path of paths) {
    const score = fuzzyScore(q, path, scratch)
    if (score === undefined) continue
    const entry = { path, score }
    const last = top.at(-1)
    if (top.length === limit && last !== undefined && !before(entry, last)) continue
    let at = top.length
    while (at > 0 && before(entry, top[at - 1] ?? entry)) at--
    top.splice(at, 0, entry)
    if (top.length > limit) top.pop()
  }
  return top.map((entry) => entry.path)
}
