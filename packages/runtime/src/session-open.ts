/**
 * Opening a session file for reading without trusting what stands at its name. A FIFO named
 * `ID.jsonl` would block a plain `open` until some writer appeared — in a synchronous call no
 * signal can interrupt — so the file is opened non-blocking and must then be a regular file. Every
 * failure is one line naming the file: `FILE: not a regular file (a FIFO)` (`SESSION_MALFORMED`),
 * `cannot read FILE: permission denied` (`SESSION_READ`).
 */
import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs'
import { DshError, errnoCode } from './errors.ts'
import { ioReason } from './file-io.ts'

/** A session file open for reading. */
export interface OpenSessionFile {
  /** Read-only descriptor; the caller closes it. */
  readonly fd: number
  /** Size in bytes when it was opened. */
  readonly size: number
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a FIFO'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  return 'not a file'
}

/** Opens `file` for reading; throws a one-line `DshError` unless it is a readable regular file. */
export function openSessionFile(file: string): OpenSessionFile {
  let fd: number
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    // ENXIO is a socket (it cannot be opened at all); everything else is said in words.
    const reason = errnoCode(error) === 'ENXIO' ? 'not a regular file (a socket)' : ioReason(error)
    throw new DshError('SESSION_READ', `cannot read ${file}: ${reason}`, { cause: error })
  }
  const stats = fstatSync(fd)
  if (!stats.isFile()) {
    closeSync(fd)
    throw new DshError('SESSION_MALFORMED', `${file}: not a regular file (${kindOf(stats)}); a session is a regular file`)
  }
  return { fd, size: stats.size }
}
