/**
 * Loading a JSONL session file, streamed line by line from bytes (`line-reader.ts`), so its size is
 * bounded by memory rather than by the longest string V8 can make, and every offset is a byte
 * offset.
 *
 * Rules: line 1 is the header; each later line is an event whose envelope, core payload
 * (`event-schema.ts`), increasing seq and surface operation are checked; the surface is built in
 * the same pass. A line that is not valid UTF-8, not JSON or not a valid event is a
 * `SESSION_MALFORMED` error `FILE:LINE: what is wrong`, and the file is left untouched. Only the
 * last line may be unterminated: if it parses it is kept (the next append adds its newline),
 * otherwise it is a torn write, dropped with a warning. An empty file is "empty (no header)"; a
 * FIFO or directory at the name is refused without blocking (`session-open.ts`).
 */
import { closeSync } from 'node:fs'
import { isUtf8 } from 'node:buffer'
import type { SessionEvent, SessionHeader } from '@dsh/contracts'
import { DshError, errnoCode, errorMessage, isDshError } from './errors.ts'
import { ioReason } from './file-io.ts'
import { checkEnvelope, checkPayload } from './event-schema.ts'
import { resolveMessageRef } from './message-ref.ts'
import { LineTooLongError, readLineBlocks, type LinesRead, type ReadLinesOptions } from './line-reader.ts'
import { openSessionFile } from './session-open.ts'
import { firstIssue, sessionHeaderSchema } from './session-schema.ts'
import { Surface } from './surface.ts'
import { MAX_SESSION_BYTES } from './session-writer.ts'

/** A parsed session file. */
export interface ParsedSessionFile {
  /** The header line. */
  readonly header: SessionHeader
  /** Every well-formed event. */
  readonly events: readonly SessionEvent[]
  /** The visible surface after the last event. */
  readonly surface: Surface
  /** Byte length of the well-formed prefix (the torn tail starts here); never above the file size. */
  readonly validLength: number
  /** True when the last kept line has no trailing newline (it must get one before the next append). */
  readonly missingNewline: boolean
  /** Set when a torn final line was dropped. */
  readonly warning?: string
}

const NEWLINE = 0x0a

const malformed = (file: string, line: number, what: string): DshError => new DshError('SESSION_MALFORMED', `${file}:${line}: ${what}`)

/** Accumulates lines into header, events and surface. */
class SessionParser {
  header: SessionHeader | undefined
  readonly events: SessionEvent[] = []
  readonly surface = new Surface()
  lineNumber = 0
  readonly #file: string

  constructor(file: string) {
    this.#file = file
  }

  /** Parses a block of whole lines (each ending in a newline); throws `SESSION_MALFORMED` naming the line. */
  block(bytes: Buffer): void {
    if (!isUtf8(bytes)) {
      // Rare: find the offending line, checking line by line.
      let start = 0
      for (let newline = bytes.indexOf(NEWLINE); newline !== -1; newline = bytes.indexOf(NEWLINE, start)) {
        this.line(bytes.subarray(start, newline))
        start = newline + 1
      }
      return
    }
    const text = bytes.toString('utf8')
    let start = 0
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      this.#text(text.slice(start, newline))
      start = newline + 1
    }
  }

  /** Parses one line's bytes; throws `SESSION_MALFORMED` naming the line. */
  line(bytes: Buffer): void {
    if (!isUtf8(bytes)) throw malformed(this.#file, this.lineNumber + 1, 'not valid UTF-8')
    this.#text(bytes.toString('utf8'))
  }

  #text(line: string): void {
    this.lineNumber += 1
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw malformed(this.#file, this.lineNumber, `invalid JSON (${errorMessage(error)})`)
    }
    if (this.header === undefined) this.header = this.#header(value)
    else this.#event(value)
  }

  #header(value: unknown): SessionHeader {
    const parsed = sessionHeaderSchema.safeParse(value)
    if (!parsed.success) throw malformed(this.#file, 1, `first line is not a session header (${firstIssue(parsed.error)})`)
    if (parsed.data.version !== 1) throw new DshError('SESSION_VERSION', `${this.#file}:1: session format version ${parsed.data.version} is not supported (expected 1)`)
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- validated by sessionHeaderSchema above (the original keeps unknown fields)
    return value as SessionHeader
  }

  #event(value: unknown): void {
    const problem = checkEnvelope(value, '')
    if (problem !== undefined) throw malformed(this.#file, this.lineNumber, `not a session event (${problem})`)
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the envelope shape was checked just above
    const resolved = resolveMessageRef(value as SessionEvent, this.events)
    if ('problem' in resolved) throw malformed(this.#file, this.lineNumber, `invalid user/message event (${resolved.problem})`)
    const { event } = resolved
    const { type, seq, data, surfaceOp } = event
    const payloadProblem = checkPayload(type, data)
    if (payloadProblem !== undefined) throw malformed(this.#file, this.lineNumber, `invalid ${type} event (${payloadProblem})`)
    const previousSeq = this.events.at(-1)?.seq ?? 0
    if (seq <= previousSeq) throw malformed(this.#file, this.lineNumber, `event seq ${seq} does not increase (previous ${previousSeq})`)
    if (surfaceOp !== undefined) {
      try {
        this.surface.apply(seq, surfaceOp)
      } catch (error) {
        // An impossible replace range is a malformed line like any other: name the file and line.
        throw malformed(this.#file, this.lineNumber, errorMessage(error))
      }
    }
    this.events.push(event)
  }
}

/**
 * Whether an unterminated last line is a whole line that only lost its newline (kept) or a write
 * cut short (dropped). A cut line is never valid JSON: cutting a JSON object before its closing
 * brace, or inside a UTF-8 sequence, always leaves a syntax error.
 */
function isWholeLine(rest: Buffer): boolean {
  if (!isUtf8(rest)) return false
  try {
    JSON.parse(rest.toString('utf8'))
    return true
  } catch {
    // Not JSON: the write was cut short. The caller drops it with a warning.
    return false
  }
}

/**
 * Longest line a session may hold: no file grows past {@link MAX_SESSION_BYTES}, so no line written
 * by dsh is longer. A longer one is not a session line, and is refused before it is held whole.
 */
const MAX_LINE_BYTES = MAX_SESSION_BYTES

function readLinesOf(file: string, parser: SessionParser, options: ReadLinesOptions): LinesRead {
  try {
    return readLineBlocks(options)
  } catch (error) {
    if (!(error instanceof LineTooLongError)) throw error
    throw malformed(file, parser.lineNumber + 1, `a line longer than ${MAX_LINE_BYTES / (1024 * 1024)} MiB (no session line is that long)`)
  }
}

/** Reads and parses a session file. */
export function readSessionFile(file: string): ParsedSessionFile {
  const { fd, size } = openSessionFile(file)
  try {
    const parser = new SessionParser(file)
    const { end, rest } = readLinesOf(file, parser, { fd, start: 0, end: size, maxLineBytes: MAX_LINE_BYTES, onBlock: (block) => parser.block(block) })
    const kept = rest.length > 0 && isWholeLine(rest)
    const torn = rest.length > 0 && !kept
    if (kept) parser.line(rest)
    const { header } = parser
    if (header === undefined) throw new DshError('SESSION_MALFORMED', size === 0 ? `${file}: empty (no header)` : `${file}:1: header line is torn (${size} bytes, no newline)`)
    return {
      header,
      events: parser.events,
      surface: parser.surface,
      validLength: kept ? end + rest.length : end,
      missingNewline: kept,
      ...(torn ? { warning: `${file}:${parser.lineNumber + 1}: dropped a torn final line (${rest.length} bytes) left by an interrupted write` } : {}),
    }
  } catch (error) {
    // Problems of the content are already one line naming the file; a failed read (EIO) is said in words.
    if (isDshError(error) || errnoCode(error) === undefined) throw error
    throw new DshError('SESSION_READ', `cannot read ${file}: ${ioReason(error)}`, { cause: error })
  } finally {
    closeSync(fd)
  }
}
