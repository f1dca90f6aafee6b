/**
 * Writes a kept copy of a guarded file back in place (hook-files.ts, executable-guard.ts): what a
 * command left there — a changed file, a link, a directory — goes first, then the copy is written
 * with its mode (set again after the write, so a umask cannot narrow it). Throws what the
 * filesystem throws; the caller has already moved the command's version to the quarantine.
 */
import { chmodSync, rmSync, writeFileSync } from 'node:fs'

/** A file's content and permission bits as dsh kept them. */
export interface KeptCopy {
  readonly bytes: Buffer
  readonly mode: number
}

/** Replaces whatever stands at `path` with `copy`. */
export function putBack(path: string, copy: KeptCopy): void {
  rmSync(path, { recursive: true, force: true })
  writeFileSync(path, copy.bytes, { mode: copy.mode })
  chmodSync(path, copy.mode)
}
