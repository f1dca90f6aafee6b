/**
 * Appends to a session file, whole lines or nothing.
 *
 * - A new file gets its header in a private temp file that is flushed and then hard-linked into
 *   place, so a session file never exists without its header (a full disk leaves nothing behind).
 * - Each event is one `write` of one line. A failed or short write (a disk that fills mid-line
 *   returns a short count) is cut back to the last whole line, and every later append is refused
 *   with the same one-line error naming the file and the last event that is intact — later
 *   events can never be glued to a torn line.
 * - A file never grows past its size cap (`MAX_SESSION_BYTES` unless the store says otherwise):
 *   the append that would cross it is refused the same way, so every session stays loadable.
 * - Reopening cuts a torn tail (never extending the file) and ends an unterminated last line.
 * - Flushes run either synchronously (`sync`) or on the thread pool (`flushSoon`, grouped: see
 *   `group-commit.ts`; `flushed` waits for them). A flush that fails refuses every later append.
 *   Closing flushes synchronously whatever was requested and not yet flushed.
 */
import { randomUUID } from 'node:crypto'
import { closeSync, fstatSync, ftruncateSync, linkSync, openSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { SessionEvent, SessionHeader } from '@dsh/contracts'
import { DshError, type DshErrorCode } from './errors.ts'
import { ioReason, removeIfPresent, writeWhole, type SessionFileIo } from './file-io.ts'
import { GroupCommit } from './group-commit.ts'

/** Default size cap of one session file: 256 MiB (see the runtime README, "Durability"). */
export const MAX_SESSION_BYTES = 256 * 1024 * 1024

/** What every writer needs. */
export interface WriterOptions {
  /** The session file. */
  readonly file: string
  /** Write calls (the real ones outside tests). */
  readonly io: SessionFileIo
  /** Size cap in bytes. */
  readonly maxBytes: number
  /** Runs once on close (releases the session lock). */
  readonly release: () => void
}

/** How to go on once a session reached its cap, and why compaction is not the way. */
const SIZE_CAP_HINT = 'continue in a new session (dsh run without --resume, or /new in dsh chat); dsh compact cannot make room: it adds a checkpoint that shortens what the model sees and never shrinks the file'

const capText = (bytes: number): string => (bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB` : `${bytes} bytes`)

/** An open append handle. */
export class SessionWriter {
  readonly #fd: number
  readonly #options: WriterOptions
  #length: number
  #lastSeq: number
  #failure: DshError | undefined
  #closed = false
  readonly #commits: GroupCommit

  private constructor(fd: number, options: WriterOptions, length: number, lastSeq: number) {
    this.#fd = fd
    this.#options = options
    this.#length = length
    this.#lastSeq = lastSeq
    this.#commits = new GroupCommit(
      (done) => options.io.fdatasync(fd, done),
      (error) => this.#flushFailed(error),
    )
  }

  /** Creates the file with its header, atomically; fails if it exists. Nothing is left behind on failure. */
  static create(options: WriterOptions & { readonly header: SessionHeader }): SessionWriter {
    const { file, io } = options
    const bytes = Buffer.from(`${JSON.stringify(options.header)}\n`)
    const temp = join(dirname(file), `.${basename(file)}.${randomUUID()}.tmp`)
    try {
      const fd = openSync(temp, 'wx', 0o600)
      let reason: string | undefined
      try {
        reason = writeWhole(io, fd, bytes)
        if (reason === undefined) io.fdatasyncSync(fd)
      } finally {
        closeSync(fd)
      }
      if (reason !== undefined) throw new DshError('SESSION_WRITE', `cannot create session file ${file}: ${reason}; nothing was stored`)
      linkSync(temp, file)
    } catch (error) {
      if (error instanceof DshError) throw error
      throw new DshError('SESSION_WRITE', `cannot create session file ${file}: ${ioReason(error)}; nothing was stored`, { cause: error })
    } finally {
      removeIfPresent(temp)
    }
    return new SessionWriter(openSync(file, 'a'), options, bytes.length, 0)
  }

  /** Opens an existing file for appending after `validLength` bytes (a longer file is cut there, a shorter one is never extended). */
  static reopen(options: WriterOptions & { readonly validLength: number; readonly missingNewline: boolean; readonly lastSeq: number }): SessionWriter {
    let fd: number
    try {
      fd = openSync(options.file, 'r+')
      try {
        if (fstatSync(fd).size > options.validLength) ftruncateSync(fd, options.validLength)
      } finally {
        closeSync(fd)
      }
      fd = openSync(options.file, 'a')
    } catch (error) {
      throw new DshError('SESSION_WRITE', `cannot open ${options.file} for appending: ${ioReason(error)}; the session is unchanged`, { cause: error })
    }
    const writer = new SessionWriter(fd, options, options.validLength, options.lastSeq)
    if (options.missingNewline) {
      try {
        writer.#write(Buffer.from('\n'))
      } catch (error) {
        // The handle is not handed out: close it here (the store releases the lock).
        closeSync(fd)
        throw error
      }
    }
    return writer
  }

  /** Appends one event as a line (written before returning); throws `SESSION_WRITE` / `SESSION_TOO_LARGE` and refuses later appends. */
  append(event: SessionEvent): void {
    if (this.#failure !== undefined) throw this.#failure
    // Never write to the closed descriptor: its number may belong to another file by now.
    if (this.#closed) throw new DshError('SESSION_WRITE', `cannot append to ${this.#options.file}: the session was closed; the session is intact up to event ${this.#lastSeq}`)
    const bytes = Buffer.from(`${JSON.stringify(event)}\n`)
    if (this.#length + bytes.length > this.#options.maxBytes) {
      throw this.#fail('SESSION_TOO_LARGE', `it would pass the session size cap of ${capText(this.#options.maxBytes)}`, SIZE_CAP_HINT)
    }
    this.#write(bytes)
    this.#lastSeq = event.seq
  }

  /** Flushes to stable storage now; a failure refuses later appends. */
  sync(): void {
    if (this.#failure !== undefined || this.#closed) return
    try {
      this.#options.io.fdatasyncSync(this.#fd)
    } catch (error) {
      throw this.#flushFailed(error)
    }
    this.#commits.satisfied()
  }

  /** Starts a flush of everything written so far on the thread pool, grouped with one already running. */
  flushSoon(): void {
    if (this.#failure === undefined && !this.#closed) this.#commits.request()
  }

  /** Resolves once every flush requested so far completed; rejects with the failure of one that did not. */
  flushed(): Promise<void> {
    return this.#failure === undefined ? this.#commits.durable() : Promise.reject(this.#failure)
  }

  /** Flushes what was requested and not yet flushed, closes the handle and releases the lock; later calls do nothing. */
  close(): void {
    if (this.#closed) return
    try {
      if (this.#commits.pending) this.sync()
    } finally {
      this.#closed = true
      // A flush still running on the thread pool uses the descriptor: it is closed when that ends.
      this.#commits.whenIdle(() => closeSync(this.#fd))
      this.#options.release()
    }
  }

  #flushFailed(error: unknown): DshError {
    this.#failure = new DshError('SESSION_WRITE', `cannot flush ${this.#options.file} to disk: ${ioReason(error)}; events up to ${this.#lastSeq} are written but may not survive a power loss, and no more are appended`, { cause: error })
    return this.#failure
  }

  #write(bytes: Buffer): void {
    const reason = writeWhole(this.#options.io, this.#fd, bytes)
    if (reason !== undefined) throw this.#fail('SESSION_WRITE', reason)
    this.#length += bytes.length
  }

  /** Cuts the file back to its last whole line and records the error every later append repeats. */
  #fail(code: DshErrorCode, reason: string, hint?: string): DshError {
    let cut = ''
    try {
      ftruncateSync(this.#fd, this.#length)
    } catch (error) {
      // The partial line stays on disk; loading drops it as a torn line, so say so instead of failing twice.
      cut = `; removing the partial line failed too (${ioReason(error)}), the next load drops it`
    }
    const intact = this.#lastSeq === 0 ? 'its header (no events yet)' : `event ${this.#lastSeq}`
    this.#failure = new DshError(code, `cannot append to ${this.#options.file}: ${reason}; the session is intact up to ${intact}${cut}${hint === undefined ? '' : `; ${hint}`}`)
    return this.#failure
  }
}
