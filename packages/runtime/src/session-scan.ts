/**
 * A cheap summary of one session file for listings, read from its two ends, whatever its size:
 *
 * 1. the header is line 1 (an empty file is "empty (no header)");
 * 2. the title — the first prompt a person typed, or a child session's delegation — is searched
 *    in the first {@link TITLE_WINDOW} bytes only (it is near the start in practice);
 * 3. the event and turn counts come from the last complete lines: events are numbered 1, 2, 3, …
 *    (the last seq is the count) and turns likewise (the last `turn` a payload names is the count);
 *    the tail window grows until one line names a turn, up to {@link TAIL_LIMIT};
 * 4. a rescan keeps the header and title when the 32 bytes before the last scanned offset are
 *    unchanged (the file only grew) and starts over when the file was replaced or rewritten.
 *
 * Nothing here validates events: loading the session does that. A line that is not JSON is
 * skipped.
 */
import { closeSync, readSync } from 'node:fs'
import type { SessionHeader } from '@dsh/contracts'
import { z } from 'zod'
import { DshError, errorMessage } from './errors.ts'
import { openSessionFile } from './session-open.ts'
import { firstIssue, sessionHeaderSchema } from './session-schema.ts'

/** What a scan learned about a file, up to `offset`. */
export interface SessionScan {
  /** The header line. */
  readonly header: SessionHeader
  /** Where the header line ends (the first event starts). */
  readonly bodyStart: number
  /** Bytes covered: the end of the last complete line. */
  readonly offset: number
  /** Base64 of the (up to) 32 bytes before `offset`, to notice a rewritten file. */
  readonly tail: string
  /** Events after the header (the last event's seq). */
  readonly eventCount: number
  /** Turns started (the last turn number a payload names). */
  readonly turnCount: number
  /** First typed prompt (or delegation), whitespace collapsed to single spaces, at most {@link TITLE_CHARS} characters. */
  readonly title?: string
}

/** Longest title kept. */
export const TITLE_CHARS = 200
/** How far into a file the title is looked for. */
export const TITLE_WINDOW = 256 * 1024
/** How far back from the end the counts are looked for. */
export const TAIL_LIMIT = 8 * 1024 * 1024
const FIRST_WINDOW = 16 * 1024
const FINGERPRINT_BYTES = 32
const NEWLINE = 0x0a
const USER_MESSAGE = Buffer.from('{"type":"user/message"')

const titleLineSchema = z.object({
  data: z.object({ message: z.object({ source: z.object({ kind: z.string() }), content: z.array(z.object({ text: z.string().optional() })) }) }),
})
const countsSchema = z.object({ seq: z.number().int().min(0), data: z.unknown() })
const turnSchema = z.object({ turn: z.number().int().min(0) })

/** One reusable read buffer for a whole listing (a view it returns is valid until the next read). */
export class ScanBuffer {
  #bytes = Buffer.allocUnsafe(FIRST_WINDOW)

  /** Reads up to `length` bytes at `position`; returns a view of what was read. */
  read(fd: number, position: number, length: number): Buffer {
    if (length > this.#bytes.length) this.#bytes = Buffer.allocUnsafe(Math.max(length, this.#bytes.length * 2))
    const read = readSync(fd, this.#bytes, 0, Math.max(0, length), position)
    return this.#bytes.subarray(0, read)
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    // A line that is not JSON (a torn write, a foreign line): it names nothing; loading reports it.
    return undefined
  }
}

function parseHeader(file: string, line: Buffer): SessionHeader {
  let value: unknown
  try {
    value = JSON.parse(line.toString('utf8'))
  } catch (error) {
    throw new DshError('SESSION_MALFORMED', `${file}:1: invalid JSON (${errorMessage(error)})`)
  }
  const parsed = sessionHeaderSchema.safeParse(value)
  if (!parsed.success) throw new DshError('SESSION_MALFORMED', `${file}:1: first line is not a session header (${firstIssue(parsed.error)})`)
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- validated by sessionHeaderSchema just above
  return value as SessionHeader
}

/** The header line and where it ends; throws for an empty file or one without a whole first line. */
function readHeader(reader: ScanBuffer, file: string, fd: number, size: number): { header: SessionHeader; end: number } {
  for (let window = FIRST_WINDOW; ; window *= 2) {
    const head = reader.read(fd, 0, Math.min(window, size))
    const newline = head.indexOf(NEWLINE)
    if (newline !== -1) return { header: parseHeader(file, head.subarray(0, newline)), end: newline + 1 }
    if (head.length >= size || window >= TAIL_LIMIT) throw new DshError('SESSION_MALFORMED', size === 0 ? `${file}: empty (no header)` : `${file}:1: header line is torn (${size} bytes, no newline)`)
  }
}

function titleOf(line: Buffer): string | undefined {
  const parsed = titleLineSchema.safeParse(parseJson(line.toString('utf8')))
  if (!parsed.success) return undefined
  const { source, content } = parsed.data.data.message
  if (source.kind !== 'user' && source.kind !== 'delegation') return undefined
  const text = content
    .map((block) => block.text ?? '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim()
  if (text === '') return undefined
  return text.length <= TITLE_CHARS ? text : `${text.slice(0, TITLE_CHARS - 1)}…`
}

/** The first title among the whole lines from `start` up to `end`, read in growing windows within the title window. */
function findTitle(reader: ScanBuffer, fd: number, start: number, end: number): string | undefined {
  const limit = Math.min(end, TITLE_WINDOW)
  let lineStart = start
  for (let window = FIRST_WINDOW; lineStart < limit; window *= 2) {
    const bytes = reader.read(fd, lineStart, Math.min(window, limit - lineStart))
    let from = 0
    for (let newline = bytes.indexOf(NEWLINE); newline !== -1; newline = bytes.indexOf(NEWLINE, from)) {
      const line = bytes.subarray(from, newline)
      if (line.subarray(0, USER_MESSAGE.length).equals(USER_MESSAGE)) {
        const title = titleOf(line)
        if (title !== undefined) return title
      }
      from = newline + 1
    }
    if (from === 0 && lineStart + bytes.length >= limit) return undefined
    lineStart += from
  }
  return undefined
}

/** Where the last whole line ends, the last seq and the last turn number, read from the end backwards. */
function readCounts(reader: ScanBuffer, fd: number, bodyStart: number, size: number): { offset: number; eventCount: number; turnCount: number } {
  for (let window = FIRST_WINDOW; ; window *= 2) {
    const start = Math.max(bodyStart, size - window)
    const bytes = reader.read(fd, start, size - start)
    const complete = bytes.lastIndexOf(NEWLINE) + 1
    const fromLineStart = start === bodyStart
    const lines = bytes.subarray(0, complete).toString('utf8').split('\n').slice(fromLineStart ? 0 : 1, -1)
    let eventCount: number | undefined
    for (let index = lines.length - 1; index >= 0; index--) {
      const event = countsSchema.safeParse(parseJson(lines[index] ?? ''))
      if (!event.success) continue
      eventCount ??= event.data.seq
      const turn = turnSchema.safeParse(event.data.data)
      if (turn.success) return { offset: start + complete, eventCount, turnCount: turn.data.turn }
    }
    if (fromLineStart || window >= TAIL_LIMIT) return complete === 0 && !fromLineStart ? { offset: bodyStart, eventCount: 0, turnCount: 0 } : { offset: start + complete, eventCount: eventCount ?? 0, turnCount: 0 }
  }
}

function fingerprint(reader: ScanBuffer, fd: number, offset: number): string {
  const length = Math.min(FINGERPRINT_BYTES, offset)
  return reader.read(fd, offset - length, length).toString('base64')
}

/** The header line of `file`, read from its first bytes alone whatever the file's size. */
export function readSessionHeader(file: string): SessionHeader {
  const { fd, size } = openSessionFile(file)
  try {
    return readHeader(new ScanBuffer(), file, fd, size).header
  } finally {
    closeSync(fd)
  }
}

/** Summarises `file` (of `size` bytes), reusing what `previous` found when the file only grew since. */
export function scanSession(options: { readonly file: string; readonly size: number; readonly previous: SessionScan | undefined; readonly reader: ScanBuffer }): SessionScan {
  const { file, size, previous, reader } = options
  const { fd } = openSessionFile(file)
  try {
    const grown = previous !== undefined && previous.offset <= size && fingerprint(reader, fd, previous.offset) === previous.tail
    const { header, end: bodyStart } = grown ? { header: previous.header, end: previous.bodyStart } : readHeader(reader, file, fd, size)
    const counts = readCounts(reader, fd, bodyStart, size)
    const title = grown && previous.title !== undefined ? previous.title : findTitle(reader, fd, bodyStart, counts.offset)
    return { header, bodyStart, offset: counts.offset, tail: fingerprint(reader, fd, counts.offset), eventCount: counts.eventCount, turnCount: counts.turnCount, ...(title === undefined ? {} : { title }) }
  } finally {
    closeSync(fd)
  }
}
