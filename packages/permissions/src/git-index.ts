/**
 * Reads which paths a git index records as executable files (mode 100755, stage 0, not
 * skip-worktree), without running git: the index is parsed directly (versions 2, 3 and 4, SHA-1
 * or SHA-256 object names), so no program the repository's config names (`core.fsmonitor`, …)
 * runs. A three-state probe: `present` with the paths (relative to the work tree, `/`-separated),
 * `absent` when there is no index, `unavailable` with the reason when it cannot be read or its
 * form is one this reader does not take (a split index, a damaged file).
 */
import { readSmallFile, readSmallText } from '@dsh/runtime'
import { join } from 'node:path'
import { configKeyValue } from './new-repositories.ts'

/** What the index says. */
export type IndexExecutables =
  | { readonly kind: 'present'; readonly paths: readonly string[] }
  | { readonly kind: 'absent' }
  | { readonly kind: 'unavailable'; readonly why: string }

const EXECUTABLE_FILE = 0o100755
/** Largest index read (a repository of a million files has one of about 100 MiB). */
const MAX_INDEX_BYTES = 512 * 1024 * 1024
const EXTENDED = 0x4000
const SKIP_WORKTREE = 0x4000
/** ctime, mtime, dev, ino, mode, uid, gid, size: ten 32-bit fields before the object name. */
const STAT_BYTES = 40

/** The object name length of the repository (`extensions.objectformat`). */
function hashBytes(gitDir: string): number {
  // No config (or none dsh can read as a small regular file): git's default, SHA-1.
  const config = readSmallText(join(gitDir, 'config'), { maxBytes: 1024 * 1024 }) ?? ''
  return configKeyValue(config, 'extensions.objectformat')?.toLowerCase() === 'sha256' ? 32 : 20
}

/** git's offset varint (index v4 path prefixes): returns the value and the next position. */
function varint(data: Buffer, at: number): [number, number] {
  let byte = data[at++] ?? 0
  let value = byte & 0x7f
  while ((byte & 0x80) !== 0) {
    if (at >= data.length) throw new RangeError('varint past the end')
    byte = data[at++] ?? 0
    value = ((value + 1) << 7) | (byte & 0x7f)
  }
  return [value, at]
}

/** The executable paths of an index already read; throws a RangeError on a damaged one. */
export function executablesInIndex(data: Buffer, hash: number): IndexExecutables {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return { kind: 'unavailable', why: 'not a git index (no DIRC signature)' }
  const version = data.readUInt32BE(4)
  if (version < 2 || version > 4) return { kind: 'unavailable', why: `index version ${version}` }
  const count = data.readUInt32BE(8)
  const paths: string[] = []
  let at = 12
  let previous = ''
  for (let entry = 0; entry < count; entry++) {
    const start = at
    if (at + STAT_BYTES + hash + 2 > data.length) throw new RangeError(`entry ${entry} past the end`)
    const mode = data.readUInt32BE(at + 24)
    at += STAT_BYTES + hash
    const flags = data.readUInt16BE(at)
    at += 2
    let extended = 0
    if (version >= 3 && (flags & EXTENDED) !== 0) {
      extended = data.readUInt16BE(at)
      at += 2
    }
    let path: string
    if (version === 4) {
      const [strip, next] = varint(data, at)
      const end = data.indexOf(0, next)
      if (end < 0 || strip > previous.length) throw new RangeError(`entry ${entry}: bad path`)
      path = previous.slice(0, previous.length - strip) + data.toString('utf8', next, end)
      at = end + 1
    } else {
      const end = data.indexOf(0, at)
      if (end < 0) throw new RangeError(`entry ${entry}: unterminated path`)
      path = data.toString('utf8', at, end)
      // 1–8 NULs pad the entry to a multiple of 8 bytes.
      at = start + ((end - start + 8) & ~7)
    }
    previous = path
    const stage = (flags >> 12) & 0x3
    if (mode === EXECUTABLE_FILE && stage === 0 && (extended & SKIP_WORKTREE) === 0) paths.push(path)
  }
  // Extensions follow: a split index keeps most entries in another file this reader does not take.
  while (at + 8 <= data.length - hash) {
    const signature = data.toString('latin1', at, at + 4)
    if (signature === 'link') return { kind: 'unavailable', why: 'a split index (core.splitIndex)' }
    at += 8 + data.readUInt32BE(at + 4)
  }
  return { kind: 'present', paths }
}

/** The executable files the index of `gitDir` records. Never throws. */
export function indexExecutables(gitDir: string): IndexExecutables {
  const file = join(gitDir, 'index')
  // A command may leave a FIFO or a link to a device there: only a regular file is read.
  const read = readSmallFile(file, { maxBytes: MAX_INDEX_BYTES })
  // No index yet (a repository nothing was added to): absent, not unreadable.
  if (read.kind === 'absent') return { kind: 'absent' }
  if (read.kind !== 'file') return { kind: 'unavailable', why: `cannot read ${file}: ${read.kind === 'unreadable' ? read.reason : read.kind === 'too-large' ? `larger than ${MAX_INDEX_BYTES} bytes` : 'not a regular file'}` }
  const data = read.bytes
  try {
    return executablesInIndex(data, hashBytes(gitDir))
  } catch (error) {
    // A damaged or cut index (a git process writes a new one by rename, so this is rare).
    if (error instanceof RangeError) return { kind: 'unavailable', why: `damaged index ${join(gitDir, 'index')}: ${error.message}` }
    throw error
  }
}
