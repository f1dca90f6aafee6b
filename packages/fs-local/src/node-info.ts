/**
 * Converts bigint `Stats` into port metadata: node type, the opaque version string
 * `dev:ino:size:mtimeNs:ctimeNs`, which changes whenever content may have changed,
 * `changedAtMs`, the later of mtime and ctime, and `nodeId`, the device and inode (all from the
 * same stats: no extra syscall).
 */
import type { BigIntStats } from 'node:fs'
import type { FsInfo, FsNodeType, FsPathInfo, FsVersion } from '@dsh/contracts'

/** Opaque version of a node: device, inode, size and nanosecond mtime/ctime. */
export function versionOf(stats: BigIntStats): FsVersion {
  // The brand is only ever applied here; a plain string cannot be narrowed to it otherwise.
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}` as FsVersion
}

/**
 * Identity of the node: device and inode, equal for every path (link, hard link) that reaches it.
 * Cut from the version string (it starts with `dev:ino:`), which costs less than formatting the
 * two bigints again on every stat.
 */
export function nodeIdOf(version: FsVersion): string {
  return version.slice(0, version.indexOf(':', version.indexOf(':') + 1))
}

/**
 * The later of mtime and ctime in epoch milliseconds, kept to the microsecond (a bigint division
 * first, so the float keeps every digit that matters). ctime cannot be set from user space, so a
 * back-dated mtime (`touch -d`, archive extraction) does not make a fresh change look old.
 */
export function changedAtMsOf(stats: BigIntStats): number {
  const latest = stats.mtimeNs > stats.ctimeNs ? stats.mtimeNs : stats.ctimeNs
  return Number(latest / 1000n) / 1000
}

/** File, directory or other (FIFO, socket, device) as seen through followed stats. */
export function nodeTypeOf(stats: BigIntStats): FsNodeType {
  if (stats.isFile()) return 'file'
  if (stats.isDirectory()) return 'directory'
  return 'other'
}

/** True for FIFOs, sockets and devices: nodes that must never be read or written as text. */
export function isSpecialNode(stats: BigIntStats): boolean {
  return stats.isFIFO() || stats.isSocket() || stats.isCharacterDevice() || stats.isBlockDevice()
}

/** Port metadata of followed stats; `size` only for regular files, where it means something. */
export function infoOf(stats: BigIntStats): FsInfo {
  const type = nodeTypeOf(stats)
  const version = versionOf(stats)
  const changedAtMs = changedAtMsOf(stats)
  const nodeId = nodeIdOf(version)
  return type === 'file' ? { type, size: Number(stats.size), version, changedAtMs, nodeId } : { type, version, changedAtMs, nodeId }
}

/** Port metadata of unfollowed stats (`symlink` for a link itself). */
export function pathInfoOf(stats: BigIntStats): FsPathInfo {
  if (stats.isSymbolicLink()) {
    const version = versionOf(stats)
    return { type: 'symlink', version, changedAtMs: changedAtMsOf(stats), nodeId: nodeIdOf(version) }
  }
  return infoOf(stats)
}
