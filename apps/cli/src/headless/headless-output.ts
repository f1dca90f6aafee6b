/**
 * The stdout of `dsh run --output-format json|stream-json`. `stream-json` writes every line with
 * one `write` call as soon as it exists (a pipe gets each line whole, when it happens); `json`
 * writes only the final `result` object. Nothing else reaches stdout in these formats: diagnostics
 * stay on stderr.
 */
import type { SessionEvent } from '@dsh/contracts'
import type { DeltaLine, EventLine, InitLine, ResultLine, StreamLine, SubagentMark } from './stream-json-types.ts'

/** The output formats of `dsh run`. */
export type OutputFormat = 'text' | 'json' | 'stream-json'

/** The machine-readable formats. */
export type HeadlessFormat = Exclude<OutputFormat, 'text'>

/** Options of {@link HeadlessOutput}. */
export interface HeadlessOutputOptions {
  readonly stdout: NodeJS.WritableStream
  readonly format: HeadlessFormat
  /** Also stream text and reasoning pieces (`--include-partial`; stream-json only). */
  readonly includePartial: boolean
}

/** The session event as a line (`subagent`: the event is a subagent's). */
export function eventLine(sessionId: string, event: SessionEvent, subagent?: SubagentMark): EventLine {
  return {
    type: event.type,
    session_id: sessionId,
    seq: event.seq,
    time: event.time,
    data: event.data,
    ...(event.surfaceOp === undefined ? {} : { surfaceOp: event.surfaceOp }),
    ...(event.sourceEventSeqs === undefined ? {} : { sourceEventSeqs: event.sourceEventSeqs }),
    ...(subagent === undefined ? {} : { subagent }),
  }
}

/** Writes the lines of one command. */
export class HeadlessOutput {
  readonly #options: HeadlessOutputOptions
  #results = 0

  constructor(options: HeadlessOutputOptions) {
    this.#options = options
  }

  /** The first line (stream-json). */
  init(line: InitLine): void {
    this.#stream(line)
  }

  /** One committed event (stream-json); `subagent` marks an event of a subagent's session. */
  event(sessionId: string, event: SessionEvent, subagent?: SubagentMark): void {
    this.#stream(eventLine(sessionId, event, subagent))
  }

  /** A streamed piece (stream-json with `--include-partial`). */
  delta(line: DeltaLine): void {
    if (this.#options.includePartial) this.#stream(line)
  }

  /** A result: every turn's in stream-json, the last one only in json (the caller writes it once). */
  result(line: ResultLine): void {
    this.#results += 1
    this.#write(line)
  }

  /** How many results were written. */
  get results(): number {
    return this.#results
  }

  #stream(line: StreamLine): void {
    if (this.#options.format === 'stream-json') this.#write(line)
  }

  #write(line: StreamLine): void {
    this.#options.stdout.write(`${JSON.stringify(line)}\n`)
  }
}
