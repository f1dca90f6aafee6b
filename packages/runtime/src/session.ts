/**
 * A live session: the header, the in-memory event list mirrored to the JSONL file, and the
 * visible surface. Appends are durable before they are published to listeners.
 */
import type { SessionEvent, SessionHeader, SessionView, SurfaceOp } from '@dsh/contracts'
import { deepFreeze } from './message-factory.ts'
import { MessageRefs } from './message-ref.ts'
import type { SessionWriter } from './session-writer.ts'
import { Surface } from './surface.ts'

/** Options for one append. */
export interface AppendOptions {
  /** Surface operation for surface-eligible events. */
  readonly surfaceOp?: SurfaceOp
  /** Seqs shadowed by a replacement. */
  readonly sourceEventSeqs?: readonly number[]
}

/** Construction options. */
export interface SessionOptions {
  /** Header line. */
  readonly header: SessionHeader
  /** Events already in the file. */
  readonly events: readonly SessionEvent[]
  /** Their surface, when the loader built it already (else it is computed from `events`). */
  readonly surface?: Surface
  /** Where appends go; absent for read-only sessions. */
  readonly writer?: SessionWriter
  /** Clock for event timestamps. */
  readonly clock: () => Date
  /** Called after each committed append; must not throw (the caller contains failures). */
  readonly onCommitted?: (session: Session, event: SessionEvent) => void
}

/** A session log with its surface. */
export class Session implements SessionView {
  readonly header: SessionHeader
  readonly #events: SessionEvent[]
  readonly #surface: Surface
  readonly #writer: SessionWriter | undefined
  readonly #clock: () => Date
  readonly #refs = new MessageRefs()
  #onCommitted: ((session: Session, event: SessionEvent) => void) | undefined

  constructor(options: SessionOptions) {
    this.header = deepFreeze({ ...options.header })
    this.#events = options.events.map((event) => deepFreeze(event))
    this.#surface = options.surface ?? new Surface()
    if (options.surface === undefined) for (const event of this.#events) if (event.surfaceOp !== undefined) this.#surface.apply(event.seq, event.surfaceOp)
    for (const event of this.#events) this.#refs.note(event)
    this.#writer = options.writer
    this.#clock = options.clock
    this.#onCommitted = options.onCommitted
  }

  /** Session id. */
  get id(): string {
    return this.header.id
  }

  get events(): readonly SessionEvent[] {
    return this.#events
  }

  get surface(): readonly number[] {
    return this.#surface.nodes
  }

  get replaceGeneration(): number {
    return this.#surface.replaceGeneration
  }

  eventBySeq(seq: number): SessionEvent | undefined {
    // Seqs strictly increase (checked on load, assigned on append): binary search, no second index.
    let low = 0
    let high = this.#events.length - 1
    while (low <= high) {
      const middle = (low + high) >>> 1
      const event = this.#events[middle]
      if (event === undefined) return undefined
      if (event.seq === seq) return event
      if (event.seq < seq) low = middle + 1
      else high = middle - 1
    }
    return undefined
  }

  /** Replaces the publish callback (the host attaches one when a loop owns the session). */
  setOnCommitted(callback: ((session: Session, event: SessionEvent) => void) | undefined): void {
    this.#onCommitted = callback
  }

  /** Appends an event: validates the surface op, writes the line, then publishes. O(1) amortised for `append` ops. */
  append<D>(type: string, data: D, options: AppendOptions = {}): SessionEvent<string, D> {
    if (this.#writer === undefined) throw new Error(`session ${this.id} is read-only`)
    const seq = (this.#events.at(-1)?.seq ?? 0) + 1
    if (options.surfaceOp !== undefined) this.#surface.check(options.surfaceOp)
    const event: SessionEvent<string, D> = deepFreeze({
      type,
      seq,
      time: this.#clock().toISOString(),
      data,
      ...(options.surfaceOp === undefined ? {} : { surfaceOp: options.surfaceOp }),
      ...(options.sourceEventSeqs === undefined ? {} : { sourceEventSeqs: [...options.sourceEventSeqs] }),
    })
    this.#writer.append(this.#refs.stored(event))
    this.#refs.note(event)
    this.#events.push(event)
    if (options.surfaceOp !== undefined) this.#surface.apply(seq, options.surfaceOp)
    this.#onCommitted?.(this, event)
    return event
  }

  /** Flushes appended lines to stable storage now. */
  sync(): void {
    this.#writer?.sync()
  }

  /** Starts flushing appended lines on the thread pool (grouped with a flush already running). */
  flushSoon(): void {
    this.#writer?.flushSoon()
  }

  /** Resolves once every flush requested so far completed; rejects when one failed. */
  flushed(): Promise<void> {
    return this.#writer?.flushed() ?? Promise.resolve()
  }

  /** Closes the file handle. */
  close(): void {
    this.#writer?.close()
  }
}
