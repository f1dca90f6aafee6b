/**
 * Session storage: one JSONL file per session under `$DSH_HOME/sessions/`. Creates, reopens
 * (for resume), loads read-only, and lists sessions. Every method that takes an id also takes a
 * unique prefix of one.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { SessionHeader } from '@dsh/contracts'
import { checkSessionId, resolveSessionId, SESSION_SUFFIX } from './session-id.ts'
import { listSessions, type SessionSummary } from './session-list.ts'
import { discardUnusedLock, lockSession } from './session-lock.ts'
import { makeDirectories } from './paths.ts'
import { Session } from './session.ts'
import { readSessionFile } from './session-file.ts'
import { readSessionHeader } from './session-scan.ts'
import { MAX_SESSION_BYTES, SessionWriter, type WriterOptions } from './session-writer.ts'
import { nodeFileIo, type SessionFileIo } from './file-io.ts'

/** Fields of a new session header that the caller chooses. */
export interface NewSessionOptions {
  /** Absolute working directory. */
  readonly cwd: string
  /** Parent session for children. */
  readonly parentSession?: string
  /** `subagent` for children. */
  readonly origin?: 'subagent'
  /** Delegation depth (0 for top level). */
  readonly delegationDepth?: number
}

/** Construction options of a store. */
export interface SessionStoreOptions {
  /** The sessions directory (`$DSH_HOME/sessions`). */
  readonly directory: string
  /** Clock for ids and event times. */
  readonly clock: () => Date
  /** Receives one line per recoverable problem (a torn tail dropped, a file skipped by a listing). */
  readonly warn: (line: string) => void
  /** Write calls (tests inject short writes and full disks); the real ones by default. */
  readonly io?: SessionFileIo
  /** Size cap of one session file in bytes; {@link MAX_SESSION_BYTES} by default. */
  readonly maxBytes?: number
}

/** Creates and opens sessions in a directory. */
export class SessionStore {
  readonly directory: string
  readonly #clock: () => Date
  readonly #warn: (line: string) => void
  readonly #io: SessionFileIo
  readonly #maxBytes: number

  constructor(options: SessionStoreOptions) {
    this.directory = options.directory
    this.#clock = options.clock
    this.#warn = options.warn
    this.#io = options.io ?? nodeFileIo
    this.#maxBytes = options.maxBytes ?? MAX_SESSION_BYTES
  }

  /** Path of a session file; rejects ids that could escape the directory. */
  fileOf(id: string): string {
    return join(this.directory, `${checkSessionId(id)}${SESSION_SUFFIX}`)
  }

  /** The stored id that `idOrPrefix` names: a whole id, or a prefix only one stored id starts with. */
  resolve(idOrPrefix: string): string {
    return resolveSessionId(this.directory, idOrPrefix)
  }

  #newId(): string {
    const stamp = this.#clock().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)
    return `${stamp}-${randomBytes(3).toString('hex')}`
  }

  /** Creates a new session file with its header. */
  create(options: NewSessionOptions): Session {
    makeDirectories(this.directory, { mode: 0o700 })
    const header: SessionHeader = {
      type: 'session',
      version: 1,
      id: this.#newId(),
      createdAt: this.#clock().toISOString(),
      cwd: options.cwd,
      delegationDepth: options.delegationDepth ?? 0,
      ...(options.parentSession === undefined ? {} : { parentSession: options.parentSession }),
      ...(options.origin === undefined ? {} : { origin: options.origin }),
    }
    const lock = { directory: this.directory, sessionId: header.id }
    let release: () => void
    try {
      release = lockSession({ ...lock, io: this.#io })
    } catch (error) {
      discardUnusedLock(lock)
      throw error
    }
    let writer: SessionWriter
    try {
      writer = SessionWriter.create({ ...this.#writerOptions(header.id, release), header })
    } catch (error) {
      // Nothing was stored (a full disk): release the lock and leave no trace of the session.
      release()
      discardUnusedLock(lock)
      throw error
    }
    return new Session({ header, events: [], writer, clock: this.#clock })
  }

  /** Loads a session read-only; `idOrPrefix` is resolved by {@link resolve}. */
  load(idOrPrefix: string): Session {
    const id = this.resolve(idOrPrefix)
    const parsed = readSessionFile(this.fileOf(id))
    if (parsed.warning !== undefined) this.#warn(parsed.warning)
    return new Session({ header: this.#headerOf(id, parsed.header), events: parsed.events, surface: parsed.surface, clock: this.#clock })
  }

  /** The header of a stored session (with the file's id), read from its first line only: nothing else is checked. */
  header(idOrPrefix: string): SessionHeader {
    const id = this.resolve(idOrPrefix)
    return { ...readSessionHeader(this.fileOf(id)), id }
  }

  /** Opens a session for appending (resume); `idOrPrefix` is resolved by {@link resolve}; a torn tail is cut after a warning. */
  open(idOrPrefix: string): Session {
    const id = this.resolve(idOrPrefix)
    const file = this.fileOf(id)
    const release = lockSession({ directory: this.directory, sessionId: id, io: this.#io })
    const parsed = this.#guard(release, () => readSessionFile(file))
    if (parsed.warning !== undefined) this.#warn(parsed.warning)
    const lastSeq = parsed.events.at(-1)?.seq ?? 0
    const writer = this.#guard(release, () => SessionWriter.reopen({ ...this.#writerOptions(id, release), validLength: parsed.validLength, missingNewline: parsed.missingNewline, lastSeq }))
    return new Session({ header: this.#headerOf(id, parsed.header), events: parsed.events, surface: parsed.surface, writer, clock: this.#clock })
  }

  /** Lists sessions, most recently updated first, from the listing index (see `session-list.ts`). */
  list(): SessionSummary[] {
    return listSessions({ directory: this.directory, warn: this.#warn })
  }

  /** The header with the file's id: a copied file whose header names another session is that file's session. */
  #headerOf(id: string, header: SessionHeader): SessionHeader {
    if (header.id === id) return header
    this.#warn(`${this.fileOf(id)}: its header names session ${JSON.stringify(header.id)}; using its file name "${id}"`)
    return { ...header, id }
  }

  #writerOptions(id: string, release: () => void): WriterOptions {
    return { file: this.fileOf(id), io: this.#io, maxBytes: this.#maxBytes, release }
  }

  /** Runs `step`; releases the session lock if it throws (nothing was opened then). */
  #guard<T>(release: () => void, step: () => T): T {
    try {
      return step()
    } catch (error) {
      release()
      throw error
    }
  }

}
