/**
 * Session storage: one JSONL file per session under `$DSH_HOME/sessions/`. Creates, reopens
 * (for resume), loads read-only, and lists sessions.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { SessionHeader } from '@dsh/contracts'
import { DshError, errorMessage } from './errors.ts'
import { dataOf } from './event-data.ts'
import { lockSession } from './session-lock.ts'
import { makeDirectories } from './paths.ts'
import { Session } from './session.ts'
import { readSessionFile, SessionWriter } from './session-file.ts'

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

/** One row of `list()`. */
export interface SessionSummary {
  /** Session id. */
  readonly id: string
  /** Header. */
  readonly header: SessionHeader
  /** Number of events. */
  readonly eventCount: number
  /** Last modification of the file. */
  readonly modifiedAt: Date
  /** First typed prompt, if any. */
  readonly firstPrompt?: string
}

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

/** Creates and opens sessions in a directory. */
export class SessionStore {
  readonly directory: string
  readonly #clock: () => Date
  readonly #warn: (line: string) => void

  constructor(options: { readonly directory: string; readonly clock: () => Date; readonly warn: (line: string) => void }) {
    this.directory = options.directory
    this.#clock = options.clock
    this.#warn = options.warn
  }

  /** Path of a session file; rejects ids that could escape the directory. */
  fileOf(id: string): string {
    if (!idPattern.test(id)) throw new DshError('SESSION_NOT_FOUND', `invalid session id "${id}"`)
    return join(this.directory, `${id}.jsonl`)
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
    const release = lockSession(this.#lockOf(header.id), header.id)
    const writer = this.#guard(release, () => SessionWriter.create(this.fileOf(header.id), header, release))
    return new Session({ header, events: [], writer, clock: this.#clock })
  }

  /** Loads a session read-only. */
  load(id: string): Session {
    const file = this.#existing(id)
    const parsed = readSessionFile(file)
    if (parsed.warning !== undefined) this.#warn(parsed.warning)
    return new Session({ header: parsed.header, events: parsed.events, clock: this.#clock })
  }

  /** Opens a session for appending (resume); a torn tail is cut after a warning. */
  open(id: string): Session {
    const file = this.#existing(id)
    const release = lockSession(this.#lockOf(id), id)
    const parsed = this.#guard(release, () => readSessionFile(file))
    if (parsed.warning !== undefined) this.#warn(parsed.warning)
    const writer = this.#guard(release, () => SessionWriter.reopen(file, parsed, release))
    return new Session({ header: parsed.header, events: parsed.events, writer, clock: this.#clock })
  }

  /** Lists sessions, newest first. Unreadable files are reported through the warning sink and skipped. */
  list(): SessionSummary[] {
    if (!existsSync(this.directory)) return []
    const rows: SessionSummary[] = []
    for (const name of readdirSync(this.directory)) {
      if (!name.endsWith('.jsonl')) continue
      const file = join(this.directory, name)
      try {
        const parsed = readSessionFile(file)
        const prompt = parsed.events.map((event) => dataOf(event, 'user/message')?.message).find((message) => message?.source.kind === 'user')
        const text = prompt?.content[0]?.text
        rows.push({ id: parsed.header.id, header: parsed.header, eventCount: parsed.events.length, modifiedAt: statSync(file).mtime, ...(text === undefined ? {} : { firstPrompt: text }) })
      } catch (error) {
        // A malformed file must not hide the others; say which one and why.
        this.#warn(`skipping ${file}: ${errorMessage(error)}`)
      }
    }
    return rows.toSorted((a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime() || b.id.localeCompare(a.id))
  }

  #lockOf(id: string): string {
    return `${this.fileOf(id).slice(0, -'.jsonl'.length)}.lock`
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

  #existing(id: string): string {
    const file = this.fileOf(id)
    if (!existsSync(file)) throw new DshError('SESSION_NOT_FOUND', `no session "${id}" in ${this.directory}`)
    return file
  }
}
