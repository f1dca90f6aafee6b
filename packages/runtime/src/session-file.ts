/**
 * JSONL session file parsing and durable appends.
 *
 * Load rules: line 1 is the header; a torn final line (a crash mid-write) is dropped with a
 * warning; any other malformed line is a `SESSION_MALFORMED` error naming the file and line, and
 * nothing is rewritten. Appends are written synchronously before they are published; the file is
 * fsynced at step and turn boundaries (`sync()`), trading a few milliseconds per step for
 * durability against power loss rather than only process crashes.
 */
import { closeSync, fdatasyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs'
import type { SessionEvent, SessionHeader } from '@dsh/contracts'
import { DshError, errorMessage } from './errors.ts'
import { firstIssue, sessionEventSchema, sessionHeaderSchema } from './session-schema.ts'
import { applySurfaceOp, emptySurface } from './surface.ts'

/** A parsed session file. */
export interface ParsedSessionFile {
  /** The header line. */
  readonly header: SessionHeader
  /** Every well-formed event. */
  readonly events: readonly SessionEvent[]
  /** Byte length of the well-formed prefix (the torn tail starts here). */
  readonly validLength: number
  /** True when the last kept line has no trailing newline (it must get one before the next append). */
  readonly missingNewline: boolean
  /** Set when a torn final line was dropped. */
  readonly warning?: string
}

function parseLine(file: string, lineNumber: number, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new DshError('SESSION_MALFORMED', `${file}:${lineNumber}: invalid JSON (${errorMessage(error)})`)
  }
}

function checkEvent(file: string, lineNumber: number, value: unknown, previousSeq: number): SessionEvent {
  const parsed = sessionEventSchema.safeParse(value)
  if (!parsed.success) throw new DshError('SESSION_MALFORMED', `${file}:${lineNumber}: not a session event (${firstIssue(parsed.error)})`)
  if (parsed.data.seq <= previousSeq) {
    throw new DshError('SESSION_MALFORMED', `${file}:${lineNumber}: event seq ${parsed.data.seq} does not increase (previous ${previousSeq})`)
  }
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- validated by sessionEventSchema just above
  return value as SessionEvent
}

/** Parses session file text. */
export function parseSessionText(file: string, text: string): ParsedSessionFile {
  const lines = text.split('\n')
  const endsWithNewline = text.endsWith('\n')
  if (endsWithNewline) lines.pop()
  if (lines.length === 0) throw new DshError('SESSION_MALFORMED', `${file}:1: empty session file (missing header)`)
  let warning: string | undefined
  const lastIndex = lines.length - 1
  if (!endsWithNewline) {
    try {
      JSON.parse(lines[lastIndex] ?? '')
    } catch {
      // A final line without newline that does not parse is a torn write: drop it, keep the rest.
      warning = `${file}:${lastIndex + 1}: dropped a torn final line (${(lines[lastIndex] ?? '').length} bytes) left by an interrupted write`
      lines.pop()
    }
  }
  if (lines.length === 0) throw new DshError('SESSION_MALFORMED', `${file}:1: header line is torn`)
  const rawHeader = parseLine(file, 1, lines[0] ?? '')
  const header = sessionHeaderSchema.safeParse(rawHeader)
  if (!header.success) throw new DshError('SESSION_MALFORMED', `${file}:1: first line is not a session header (${firstIssue(header.error)})`)
  if (header.data.version !== 1) {
    throw new DshError('SESSION_VERSION', `${file}:1: session format version ${header.data.version} is not supported (expected 1)`)
  }
  const events: SessionEvent[] = []
  let previousSeq = 0
  let surface = emptySurface
  for (let index = 1; index < lines.length; index++) {
    const event = checkEvent(file, index + 1, parseLine(file, index + 1, lines[index] ?? ''), previousSeq)
    if (event.surfaceOp !== undefined) {
      try {
        surface = applySurfaceOp(surface, event.seq, event.surfaceOp)
      } catch (error) {
        // An impossible replace range is a malformed line like any other: name the file and line.
        throw new DshError('SESSION_MALFORMED', `${file}:${index + 1}: ${errorMessage(error)}`)
      }
    }
    previousSeq = event.seq
    events.push(event)
  }
  const missingNewline = !endsWithNewline && warning === undefined
  const validLength = Buffer.byteLength(lines.join('\n')) + (missingNewline ? 0 : 1)
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- validated by sessionHeaderSchema above
  return { header: rawHeader as SessionHeader, events, validLength, missingNewline, ...(warning === undefined ? {} : { warning }) }
}

/** Reads and parses a session file. */
export function readSessionFile(file: string): ParsedSessionFile {
  return parseSessionText(file, readFileSync(file, 'utf8'))
}

/** An open append handle. */
export class SessionWriter {
  readonly #fd: number
  readonly #release: () => void

  private constructor(fd: number, release: () => void) {
    this.#fd = fd
    this.#release = release
  }

  /** Creates a new file with its header; fails if it exists. `release` runs on close (the session lock). */
  static create(file: string, header: SessionHeader, release: () => void): SessionWriter {
    const fd = openSync(file, 'wx', 0o600)
    writeSync(fd, `${JSON.stringify(header)}\n`)
    fdatasyncSync(fd)
    return new SessionWriter(fd, release)
  }

  /** Opens an existing file for appending: cuts a torn tail, and ends an unterminated last line. */
  static reopen(file: string, parsed: Pick<ParsedSessionFile, 'validLength' | 'missingNewline'>, release: () => void): SessionWriter {
    const fd = openSync(file, 'r+')
    ftruncateSync(fd, parsed.validLength)
    closeSync(fd)
    const writer = new SessionWriter(openSync(file, 'a'), release)
    if (parsed.missingNewline) writeSync(writer.#fd, '\n')
    return writer
  }

  /** Appends one record as a line (written before returning). */
  append(record: unknown): void {
    writeSync(this.#fd, `${JSON.stringify(record)}\n`)
  }

  /** Flushes to stable storage. */
  sync(): void {
    fdatasyncSync(this.#fd)
  }

  #closed = false

  /** Closes the handle; later calls do nothing. */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    try {
      closeSync(this.#fd)
    } finally {
      this.#release()
    }
  }
}
