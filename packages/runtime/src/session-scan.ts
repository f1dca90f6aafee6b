/**
 * A cheap summary of one session file for listings, built without parsing whole sessions:
 *
 * 1. the header is parsed from line 1 (an empty file is "empty (no header)");
 * 2. every later line is classified by its leading bytes (`{"type":"turn/start"` — the writer
 *    always puts `type` first; a line that does not start that way is parsed to find its type);
 * 3. only `user/message` lines are parsed, and only until the title (the first prompt a person
 *    typed, or a child session's delegation) is found;
 * 4. the file is append-only, so a later scan continues from the byte offset the last one reached,
 *    after checking that the bytes just before it are unchanged (else it starts over).
 */
import { closeSync, openSync, readSync } from 'node:fs'
import type { SessionHeader } from '@dsh/contracts'
import { z } from 'zod'
import { DshError, errorMessage } from './errors.ts'
import { readLines } from './line-reader.ts'
import { firstIssue, sessionHeaderSchema } from './session-schema.ts'

/** What a scan learned about a file, up to `offset`. */
export interface SessionScan {
  /** The header line. */
  readonly header: SessionHeader
  /** Bytes scanned: the end of the last complete line. */
  readonly offset: number
  /** Base64 of the (up to) 32 bytes before `offset`, to notice a rewritten file. */
  readonly tail: string
  /** Lines after the header. */
  readonly eventCount: number
  /** `turn/start` lines. */
  readonly turnCount: number
  /** First typed prompt (or delegation), whitespace collapsed to single spaces, at most {@link TITLE_CHARS} characters. */
  readonly title?: string
}

/** Longest title kept. */
export const TITLE_CHARS = 200
const TAIL_BYTES = 32
const TYPE_PREFIX = Buffer.from('{"type":"')
const TURN_START = Buffer.from('{"type":"turn/start"')
const USER_MESSAGE = Buffer.from('{"type":"user/message"')

const startsWith = (line: Buffer, prefix: Buffer): boolean => line.length >= prefix.length && line.compare(prefix, 0, prefix.length, 0, prefix.length) === 0

function typeOf(line: Buffer): string | undefined {
  if (startsWith(line, TURN_START)) return 'turn/start'
  if (startsWith(line, USER_MESSAGE)) return 'user/message'
  if (startsWith(line, TYPE_PREFIX)) return 'other'
  try {
    const value: unknown = JSON.parse(line.toString('utf8'))
    return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string' ? value.type : undefined
  } catch {
    // A line that is not JSON has no type; loading the session reports it, a listing only counts it.
    return undefined
  }
}

const titleLineSchema = z.object({
  data: z.object({
    message: z.object({
      source: z.object({ kind: z.string() }),
      content: z.array(z.object({ text: z.string().optional() })),
    }),
  }),
})

/** The title a `user/message` line carries, if it is a typed prompt or a delegation. */
function titleOf(line: Buffer): string | undefined {
  let value: unknown
  try {
    value = JSON.parse(line.toString('utf8'))
  } catch {
    // Not JSON: not a title (loading the session reports the line).
    return undefined
  }
  const parsed = titleLineSchema.safeParse(value)
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

function readTail(fd: number, offset: number): string {
  const length = Math.min(TAIL_BYTES, offset)
  const bytes = Buffer.alloc(length)
  const read = readSync(fd, bytes, 0, length, offset - length)
  return bytes.subarray(0, read).toString('base64')
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

/** Scans `file` (of `size` bytes) from where `previous` stopped, or from the start. */
export function scanSession(file: string, size: number, previous: SessionScan | undefined): SessionScan {
  const fd = openSync(file, 'r')
  try {
    const resumable = previous !== undefined && previous.offset <= size && readTail(fd, previous.offset) === previous.tail
    let header = resumable ? previous.header : undefined
    let eventCount = resumable ? previous.eventCount : 0
    let turnCount = resumable ? previous.turnCount : 0
    let title = resumable ? previous.title : undefined
    const { end } = readLines({
      fd,
      start: resumable ? previous.offset : 0,
      end: size,
      onLine: (line) => {
        if (header === undefined) {
          header = parseHeader(file, line)
          return
        }
        eventCount += 1
        const type = typeOf(line)
        if (type === 'turn/start') turnCount += 1
        else if (type === 'user/message' && title === undefined) title = titleOf(line)
      },
    })
    if (header === undefined) throw new DshError('SESSION_MALFORMED', size === 0 ? `${file}: empty (no header)` : `${file}:1: header line is torn`)
    return { header, offset: end, tail: readTail(fd, end), eventCount, turnCount, ...(title === undefined ? {} : { title }) }
  } finally {
    closeSync(fd)
  }
}
