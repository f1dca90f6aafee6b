/**
 * The content-addressed object store of one session: each distinct content is stored once, as
 * `objects/<2 hex>/<62 hex>` named by its sha-256, written durably (temp file, fsync, rename)
 * before `put` returns. `get` verifies the hash, so a damaged object is named, never restored.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeDurable } from './durable-file.ts'

/** Why an object cannot be read. */
export class MissingObjectError extends Error {
  constructor(readonly blob: string, readonly file: string, reason: 'missing' | 'corrupt') {
    super(`checkpoint object ${file} is ${reason === 'missing' ? 'missing' : 'corrupt (its content does not match its name)'}`)
  }
}

/** The sha-256 hex of bytes. */
export const blobId = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

/** One session's objects. */
export class ObjectStore {
  constructor(readonly directory: string) {}

  /** Where object `blob` lives. */
  fileOf(blob: string): string {
    return join(this.directory, blob.slice(0, 2), blob.slice(2))
  }

  /** Stores bytes durably; returns the id and how many new bytes were written (0 when already stored). */
  put(bytes: Uint8Array): { readonly blob: string; readonly added: number } {
    const blob = blobId(bytes)
    const file = this.fileOf(blob)
    if (existsSync(file)) return { blob, added: 0 }
    writeDurable(file, bytes, { mode: 0o400 })
    return { blob, added: bytes.length }
  }

  /** Whether the object is present and intact (reads it). */
  check(blob: string): 'ok' | 'missing' | 'corrupt' {
    try {
      return blobId(readFileSync(this.fileOf(blob))) === blob ? 'ok' : 'corrupt'
    } catch {
      // Unreadable counts as missing: either way the content cannot be restored.
      return 'missing'
    }
  }

  /** The object's bytes; throws {@link MissingObjectError} when it is missing or damaged. */
  get(blob: string): Buffer {
    const file = this.fileOf(blob)
    let bytes: Buffer
    try {
      bytes = readFileSync(file)
    } catch {
      // ENOENT or unreadable: the content is gone either way.
      throw new MissingObjectError(blob, file, 'missing')
    }
    if (blobId(bytes) !== blob) throw new MissingObjectError(blob, file, 'corrupt')
    return bytes
  }
}
