/**
 * A counting proxy over a `FileSystemPort`: every call is forwarded unchanged and tallied by
 * method, so the benchmark and the CI gate can compare what the plugin asked of the filesystem
 * with the minimum its algorithm needs. Counts are port calls, not syscalls (one `resolve` is a
 * `realpath`, which may cost several syscalls underneath).
 */
import type { FileSystemPort } from '@dsh/contracts'

/** Port methods that only look at metadata. */
export const STAT_LIKE = ['stat', 'lstat', 'resolve'] as const
/** Port methods that read content. */
export const READS = ['streamText', 'readText'] as const

/** Every tallied key (`other`: listDir, writeText, editText, which the plugin should never call). */
const KEYS = [...STAT_LIKE, ...READS, 'other'] as const

/** Calls per counted method. */
export type CallCounts = Record<(typeof KEYS)[number], number>

/** A zeroed tally. */
export const zeroCounts = (): CallCounts => ({ stat: 0, lstat: 0, resolve: 0, streamText: 0, readText: 0, other: 0 })

/** `after - before`, method by method. */
export function countsBetween(before: CallCounts, after: CallCounts): CallCounts {
  const out = zeroCounts()
  for (const key of KEYS) out[key] = after[key] - before[key]
  return out
}

/** stat + lstat + resolve. */
export const statLike = (counts: CallCounts): number => counts.stat + counts.lstat + counts.resolve
/** streamText + readText. */
export const reads = (counts: CallCounts): number => counts.streamText + counts.readText

/** A port plus its live tally. */
export interface CountingFileSystem {
  readonly port: FileSystemPort
  /** A copy of the tally so far. */
  snapshot(): CallCounts
}

/** Wraps `inner`; the returned port behaves exactly like it (`versions` counts one `stat` per path). */
export function countingFileSystem(inner: FileSystemPort): CountingFileSystem {
  const counts = zeroCounts()
  const versions = inner.versions?.bind(inner)
  const port: FileSystemPort = {
    resolve: (path, options) => (counts.resolve++, inner.resolve(path, options)),
    stat: (path, signal) => (counts.stat++, inner.stat(path, signal)),
    lstat: (path, signal) => (counts.lstat++, inner.lstat(path, signal)),
    streamText: (path, options) => (counts.streamText++, inner.streamText(path, options)),
    readText: (path, options) => (counts.readText++, inner.readText(path, options)),
    listDir: (path, signal) => (counts.other++, inner.listDir(path, signal)),
    writeText: (path, content, options) => (counts.other++, inner.writeText(path, content, options)),
    editText: (path, edit, options) => (counts.other++, inner.editText(path, edit, options)),
    writableRoots: () => inner.writableRoots(),
    addWritableRoot: (root) => inner.addWritableRoot(root),
    ...(versions === undefined ? {} : { versions: (paths: readonly string[], signal?: AbortSignal) => ((counts.stat += paths.length), versions(paths, signal)) }),
  }
  return { port, snapshot: () => ({ ...counts }) }
}
