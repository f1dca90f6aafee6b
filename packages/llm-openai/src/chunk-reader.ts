/**
 * Reads the chat-completions chunks of one response body through the linear SSE decoder, with
 * the idle limit: the attempt fails when nothing that counts as progress arrived for
 * `idleMs`. Progress is a chunk that carried something (the provider says so through
 * {@link ChunkReader.progressed}) or bytes of a `data` line still arriving (a big event);
 * keep-alive comments and valid empty chunks are not (issue 22 F5, F18; research notes §3.4).
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { LinkedSignal } from './cancellation.ts'
import { SseDecoder } from './sse-decoder.ts'
import { IdleStreamError, MalformedChunkError, StreamErrorObject, type IdleKind } from './stream-errors.ts'

/** Options of {@link ChunkReader}. */
export interface ChunkReaderOptions {
  readonly body: ReadableStream<Uint8Array>
  /** Longest time without progress. */
  readonly idleMs: number
  /** The attempt's signal; aborted with the {@link IdleStreamError} when the limit runs out. */
  readonly attempt: LinkedSignal
}

/** Pulls chunks one at a time; throws the attempt's failure. */
export class ChunkReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>
  readonly #decoder = new SseDecoder()
  readonly #options: ChunkReaderOptions
  readonly #queue: string[] = []
  #ended = false
  #timer: NodeJS.Timeout | undefined
  readonly #idle: Promise<IdleStreamError>
  #resolveIdle: ((error: IdleStreamError) => void) | undefined
  /** What arrived since the last progress, for the idle message. */
  #since: { bytes: boolean; comments: boolean; chunks: boolean } = { bytes: false, comments: false, chunks: false }
  #anyData = false
  #fired: IdleStreamError | undefined

  constructor(options: ChunkReaderOptions) {
    this.#options = options
    this.#reader = options.body.getReader()
    this.#idle = new Promise<IdleStreamError>((resolve) => (this.#resolveIdle = resolve))
    this.#arm()
  }

  /** The next chunk, or undefined at the end of the body (or at `[DONE]`). */
  async next(): Promise<ChatCompletionChunk | undefined> {
    for (;;) {
      const data = this.#queue.shift()
      if (data !== undefined) {
        if (data.trim() === '[DONE]') return undefined
        return parseChunk(data)
      }
      if (this.#ended) return undefined
      const read = await Promise.race([this.#reader.read(), this.#idle]).catch((error: unknown) => {
        // Swallows the read's rejection caused by the idle limit's own abort: the limit is the cause to report.
        throw this.#fired ?? error
      })
      if (read instanceof IdleStreamError) throw read
      const decoded = read.done ? this.#decoder.end() : this.#decoder.push(read.value)
      if (read.done) this.#ended = true
      else this.#since.bytes = true
      this.#queue.push(...decoded.events)
      if (decoded.events.length > 0) {
        this.#since.chunks = true
        this.#anyData = true
      } else if (!read.done && !decoded.partialData) this.#since.comments = true
      if (decoded.partialData) {
        this.#anyData = true
        this.#arm()
      }
    }
  }

  /** Called by the provider when a chunk carried something: restarts the idle limit. */
  progressed(): void {
    this.#since = { bytes: false, comments: false, chunks: false }
    this.#arm()
  }

  /** Stops the timer and releases the body. */
  close(): void {
    clearTimeout(this.#timer)
    // Swallows a cancel of a body that already failed or ended: nothing is left to release then.
    this.#reader.cancel().catch(() => undefined)
  }

  #arm(): void {
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => {
      const error = new IdleStreamError(this.#idleKind(), this.#options.idleMs)
      this.#fired = error
      this.#resolveIdle?.(error)
      this.#options.attempt.abort(error)
    }, this.#options.idleMs)
  }

  #idleKind(): IdleKind {
    if (!this.#anyData && !this.#since.bytes) return 'nothing-after-headers'
    if (this.#since.chunks) return 'empty-chunks'
    if (this.#since.comments) return 'keep-alive-only'
    return 'stalled'
  }
}

/** A chunk from its `data` payload; an `error` object is the server's failure. */
function parseChunk(data: string): ChatCompletionChunk {
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch {
    // Swallows the parse error: the payload itself is the evidence, quoted by the error thrown instead.
    throw new MalformedChunkError(data)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new MalformedChunkError(data)
  if ('error' in value && value.error !== undefined && value.error !== null) throw new StreamErrorObject(errorText(value.error))
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- a JSON object from the stream; the mapper reads every field defensively
  return value as ChatCompletionChunk
}

function errorText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' && error.message.trim() !== '') return error.message
  return typeof error === 'string' && error.trim() !== '' ? error : 'the server sent an error object without a message'
}
