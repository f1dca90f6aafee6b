/**
 * Followed-stat versions without a `Stats` object, for `versions` (thousands of stats per run).
 * Node 20's `statSync` builds a `Stats` with four `Date`s per call and runs a chain of small
 * JavaScript functions that V8 must interpret, then optimise, before it is cheap: for the few
 * thousand stats a `dsh run` makes, that costs about 3.5 µs per stat on top of the 2 µs syscall
 * (issue 8 item 13). Node's own fs binding answers the same `stat(2)` with the numbers in a reused
 * array, the exact numbers `statSync` reads into its `Stats`.
 *
 * The binding is internal (`process.binding`, documentation-deprecated as DEP0111), so it is used
 * only when it is there and proves itself: until it has answered one present path exactly as
 * `statSync` does, `statSync` answers, and anything unexpected (no binding, another answer shape, a
 * disagreement, a thrown error without a system error code) switches the probe to `statSync` for
 * good. It is never
 * used under `--pending-deprecation` (which would print a warning) or for a node whose device or
 * inode number exceeds 2^53 (the bigint path of `probe.ts` keeps those exact).
 */
import type { FsVersion } from '@dsh/contracts'
import { systemErrorCode, toFsError } from './fs-error.ts'
import { versionFromNumbers, versionOf } from './node-info.ts'
import { probe } from './probe.ts'

/** The binding's `stat`: the reused number array, or `undefined` for ENOENT. */
type RawStat = (path: string) => Float64Array | undefined

/** Positions in the binding's stat array (Node's `getStatsFromBinding` reads the same ones). */
const DEV = 0
const INO = 7
const SIZE = 8
const MTIME_S = 12
const MTIME_NS = 13
const CTIME_S = 14
const CTIME_NS = 15
const FIELDS = 18

/** Milliseconds from seconds and nanoseconds, computed exactly as Node computes `mtimeMs`. */
const msOf = (seconds: number, nanoseconds: number): number => seconds * 1000 + nanoseconds / 1_000_000

/**
 * Node majors whose binding `stat` this module has been checked against (argument order and answer
 * shape). An internal binding checks its arguments in C++, where a mismatch aborts the process
 * instead of throwing, so the answer-proving below cannot protect another major: there `statSync`
 * answers until the major is checked and added here.
 */
const CHECKED_MAJORS: readonly string[] = ['20']

/** True when the binding may be tried on Node `version` (e.g. `20.20.2`). */
export function bindingCheckedFor(version: string): boolean {
  return CHECKED_MAJORS.includes(version.split('.')[0] ?? '')
}

function pendingDeprecation(): boolean {
  const nodeOptions = process.env['NODE_OPTIONS'] ?? ''
  return process.execArgv.includes('--pending-deprecation') || nodeOptions.includes('--pending-deprecation')
}

/** The binding's stat function, when this Node exposes one of the expected shape. */
function rawStatFunction(): RawStat | undefined {
  if (pendingDeprecation() || !bindingCheckedFor(process.versions.node)) return undefined
  let binding: unknown
  try {
    const lookup: unknown = Reflect.get(process, 'binding')
    if (typeof lookup !== 'function') return undefined
    binding = Reflect.apply(lookup, process, ['fs'])
  } catch {
    // No binding access here (a permission model, a runtime without it): `statSync` it is.
    return undefined
  }
  const stat: unknown = typeof binding === 'object' && binding !== null ? Reflect.get(binding, 'stat') : undefined
  if (!isBindingStat(stat)) return undefined
  const bound = stat.bind(binding)
  return (path) => {
    // Arguments: path, bigint, no request (synchronous), throwIfNoEntry.
    const values = bound(path, false, undefined, false)
    if (values === undefined) return undefined
    if (values instanceof Float64Array && values.length >= FIELDS) return values
    throw new UnexpectedAnswer()
  }
}

/** The shape of the binding's `stat` as this module calls it (what it returns is checked per call). */
type BindingStat = (path: string, bigint: false, request: undefined, throwIfNoEntry: false) => unknown

function isBindingStat(value: unknown): value is BindingStat {
  return typeof value === 'function'
}

/** The binding answered in a shape this module does not know. */
class UnexpectedAnswer extends Error {}

/** The version through `statSync` (number stats; bigints for an identity above 2^53). */
function versionViaStats(path: string): FsVersion | undefined {
  const stats = probe(path, true)
  return stats === undefined ? undefined : versionOf(stats)
}

/** The version from the binding's answer (`statSync`'s for an identity above 2^53). */
function viaBinding(stat: RawStat, path: string): FsVersion | undefined {
  const values = stat(path)
  if (values === undefined) return undefined
  // Read every field before anything else can reuse the array.
  const dev = values[DEV] ?? Number.NaN
  const ino = values[INO] ?? Number.NaN
  if (!Number.isSafeInteger(dev) || !Number.isSafeInteger(ino)) return versionViaStats(path)
  return versionFromNumbers(dev, ino, values[SIZE] ?? Number.NaN, msOf(values[MTIME_S] ?? Number.NaN, values[MTIME_NS] ?? Number.NaN), msOf(values[CTIME_S] ?? Number.NaN, values[CTIME_NS] ?? Number.NaN))
}

/**
 * A function giving the version `stat` reports for an absolute path (`undefined` when nothing is
 * there; ENOTDIR counts as nothing), throwing `FS_IO` for any other failure, like `probe.ts`.
 */
export function createVersionProbe(): (path: string) => FsVersion | undefined {
  let raw = rawStatFunction()
  let proven = false
  /**
   * Until the binding has answered one present path exactly as `statSync` does, `statSync`
   * answers and the binding's answer is only compared with it: a binding that disagrees (or
   * reports something where `statSync` finds nothing) is never used.
   */
  const prove = (stat: RawStat, path: string): FsVersion | undefined => {
    const expected = versionViaStats(path)
    let found: FsVersion | undefined
    try {
      found = viaBinding(stat, path)
    } catch {
      // Any failure while proving (ENOTDIR included) counts as a disagreement unless `statSync`
      // found nothing either; `statSync`'s answer stands in both cases.
      if (expected !== undefined) raw = undefined
      return expected
    }
    if (expected !== undefined && found === expected) proven = true
    else if (found !== expected) raw = undefined
    return expected
  }
  return (path) => {
    if (raw === undefined) return versionViaStats(path)
    if (!proven) return prove(raw, path)
    try {
      return viaBinding(raw, path)
    } catch (error) {
      const code = systemErrorCode(error)
      if (code === 'ENOTDIR') return undefined
      if (code !== undefined) throw toFsError(error, path, 'stat')
      // Not a system error: the binding does not behave as expected; never use it again.
      raw = undefined
      return versionViaStats(path)
    }
  }
}
