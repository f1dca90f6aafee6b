/**
 * The content-addressed object store of one session: each distinct content is stored once, as
 * `objects/<2 hex>/<62 hex>` named by its sha-256 and, unless the caller says it can wait, flushed
 * to stable storage (data, then its directory entry) before `put` returns. An object put without a
 * flush is flushed by {@link ObjectStore.flush} before any durable record names it. The name is the
 * content's hash, so no temp file and rename are needed: a file cut short by a crash has the wrong
 * size and `put` writes it again; `get` verifies the hash, so a damaged object is named, never restored.
 */
import { createHash } from 'node:crypto'
import { closeSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { errnoOf, syncDirectory } from './durable-file.ts'

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
  /** Objects of this process written whole but not yet flushed. */
  readonly #unflushed = new Set<string>()

  constructor(readonly directory: string) {}

  /** Where object `blob` lives. */
  fileOf(blob: string): string {
    return join(this.directory, blob.slice(0, 2), blob.slice(2))
  }

  /** The stored size of an object, undefined when there is none. */
  #storedSize(file: string): number | undefined {
    try {
      return statSync(file).size
    } catch (error) {
      // ENOENT: not stored yet. Anything else (EACCES, EIO) is a real failure of the store.
      if (errnoOf(error) === 'ENOENT') return undefined
      throw error
    }
  }

  /** Writes an object's file (replacing a torn one), flushed with its directory entry when asked. */
  #write(file: string, bytes: Uint8Array, options: { readonly replace: boolean; readonly flush: boolean }): void {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    if (options.replace) rmSync(file, { force: true })
    const handle = openSync(file, 'wx', 0o400)
    try {
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(handle, bytes, offset, bytes.length - offset)
      if (options.flush) fdatasyncSync(handle)
    } catch (error) {
      closeSync(handle)
      // A short write (ENOSPC) leaves no partial object behind; the error itself goes on to the caller.
      rmSync(file, { force: true })
      throw error
    }
    closeSync(handle)
    if (options.flush) syncDirectory(dirname(file))
  }

  /**
   * Stores bytes; returns the id and how many new bytes were written (0 when already stored).
   * With `flush: false` the object is whole on return but reaches stable storage only with a
   * later {@link flush}. An object of the wrong size (torn by a machine crash) is written again.
   */
  put(bytes: Uint8Array, options: { readonly flush?: boolean } = {}): { readonly blob: string; readonly added: number } {
    const blob = blobId(bytes)
    const file = this.fileOf(blob)
    const flush = options.flush !== false
    const size = this.#storedSize(file)
    if (size === bytes.length) {
      if (flush) this.flush([blob])
      return { blob, added: 0 }
    }
    this.#write(file, bytes, { replace: size !== undefined, flush })
    if (flush) this.#unflushed.delete(blob)
    else this.#unflushed.add(blob)
    return { blob, added: Math.max(0, bytes.length - (size ?? 0)) }
  }

  /** Flushes those of `blobs` this process stored without a flush (before a durable record names them). */
  flush(blobs: Iterable<string>): void {
    if (this.#unflushed.size === 0) return
    for (const blob of blobs) {
      if (!this.#unflushed.has(blob)) continue
      const file = this.fileOf(blob)
      const handle = openSync(file, 'r')
      try {
        fsyncSync(handle)
      } finally {
        closeSync(handle)
      }
      syncDirectory(dirname(file))
      this.#unflushed.delete(blob)
    }
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
