/**
 * Converts `Stats` into port metadata: node type, the opaque version string
 * `dev:ino:size:mtime:ctime`, which changes whenever content may have changed, `changedAtMs`, the
 * later of mtime and ctime, and `nodeId`, the device and inode (all from the same stats: no extra
 * syscall).
 *
 * Stats are numbers (a bigint `Stats` allocates a bigint per field and costs several times more
 * per call): the timestamps are milliseconds with a fraction, exact to well under a microsecond,
 * far finer than the filesystem's timestamp tick, which the version memo's settle rule covers. A
 * device or inode number above 2^53 cannot be told apart from its neighbours as a number, so such
 * nodes are stat'ed again as bigints ({@link NodeStats}) and keep exact identities.
 */
import type { BigIntStats, Stats } from 'node:fs'
import type { FsInfo, FsNodeType, FsPathInfo, FsVersion } from '@dsh/contracts'

/** Stats of one node: numbers, or bigints for a node whose identity numbers exceed 2^53. */
export type NodeStats = Stats | BigIntStats

/** True when number stats identify the node exactly (device and inode below 2^53). */
export const hasExactIdentity = (stats: Pick<Stats, 'dev' | 'ino'>): boolean => Number.isSafeInteger(stats.ino) && Number.isSafeInteger(stats.dev)

/** The fields a version is made of, as numbers or as bigints with nanosecond times. */
type VersionFields = Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'> | Pick<BigIntStats, 'dev' | 'ino' | 'size' | 'mtimeNs' | 'ctimeNs'>

/** Opaque version of a node: device, inode, size, mtime and ctime. */
export function versionOf(stats: VersionFields): FsVersion {
  if (!('mtimeNs' in stats)) return versionFromNumbers(stats.dev, stats.ino, stats.size, stats.mtimeMs, stats.ctimeMs)
  // The brand is only ever applied here; a plain string cannot be narrowed to it otherwise.
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}n` as FsVersion
}

/** The version of number stats (times in milliseconds with a fraction), from the numbers alone. */
export function versionFromNumbers(dev: number, ino: number, size: number, mtimeMs: number, ctimeMs: number): FsVersion {
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the brand is applied here and in `versionOf` only
  return `${dev}:${ino}:${size}:${mtimeMs}:${ctimeMs}` as FsVersion
}

/**
 * Identity of the node: device and inode, equal for every path (link, hard link) that reaches it.
 * Cut from the version string (it starts with `dev:ino:`), which costs less than formatting the
 * two numbers again on every stat.
 */
export function nodeIdOf(version: FsVersion): string {
  return version.slice(0, version.indexOf(':', version.indexOf(':') + 1))
}

/**
 * The later of mtime and ctime in epoch milliseconds (fractional). ctime cannot be set from user
 * space, so a back-dated mtime (`touch -d`, archive extraction) does not make a fresh change look old.
 */
export function changedAtMsOf(stats: NodeStats): number {
  if ('mtimeNs' in stats) {
    const latest = stats.mtimeNs > stats.ctimeNs ? stats.mtimeNs : stats.ctimeNs
    // A bigint division first, so the float keeps every digit that matters.
    return Number(latest / 1000n) / 1000
  }
  return stats.mtimeMs > stats.ctimeMs ? stats.mtimeMs : stats.ctimeMs
}

/** File, directory or other (FIFO, socket, device) as seen through followed stats. */
export function nodeTypeOf(stats: NodeStats): FsNodeType {
  if (stats.isFile()) return 'file'
  if (stats.isDirectory()) return 'directory'
  return 'other'
}

/** True for FIFOs, sockets and devices: nodes that must never be read or written as text. */
export function isSpecialNode(stats: NodeStats): boolean {
  return stats.isFIFO() || stats.isSocket() || stats.isCharacterDevice() || stats.isBlockDevice()
}

/** Port metadata of followed stats; `size` only for regular files, where it means something. */
export function infoOf(stats: NodeStats): FsInfo {
  const type = nodeTypeOf(stats)
  const version = versionOf(stats)
  const changedAtMs = changedAtMsOf(stats)
  const nodeId = nodeIdOf(version)
  return type === 'file' ? { type, size: Number(stats.size), version, changedAtMs, nodeId } : { type, version, changedAtMs, nodeId }
}

/** Port metadata of unfollowed stats (`symlink` for a link itself). */
export function pathInfoOf(stats: NodeStats): FsPathInfo {
  if (stats.isSymbolicLink()) {
    const version = versionOf(stats)
    return { type: 'symlink', version, changedAtMs: changedAtMsOf(stats), nodeId: nodeIdOf(version) }
  }
  return infoOf(stats)
}
