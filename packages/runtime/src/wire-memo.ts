/**
 * Per-agent memo of request-body parts. Messages are immutable, so the wire form of each one and
 * the length of its JSON text are computed once, however many requests carry it: a request body
 * is an array of shared wire messages, and its size (automatic compaction's estimate, taken before
 * every step, `requestJsonLength`) is a sum over cached lengths instead of a serialisation of the
 * whole history.
 */
import type { Message, WireMessage } from '@dsh/contracts'

/** Wire form of one message (`echoReasoning`: its reasoning goes back to the model). */
export type ToWire = (message: Message, echoReasoning: boolean) => WireMessage

/** The memo of one agent. */
export class WireMemo {
  readonly #plain = new WeakMap<Message, WireMessage>()
  readonly #echoed = new WeakMap<Message, WireMessage>()
  readonly #lengths = new WeakMap<object, number>()

  /** The wire form of `message`, converted by `convert` the first time it is asked for. */
  wire(message: Message, echoReasoning: boolean, convert: ToWire): WireMessage {
    const memo = echoReasoning ? this.#echoed : this.#plain
    let wire = memo.get(message)
    if (wire === undefined) {
      wire = convert(message, echoReasoning)
      memo.set(message, wire)
    }
    return wire
  }

  /** `JSON.stringify(part).length` of an immutable part (a wire message, the tool list), measured once. */
  measure(part: object): number {
    let length = this.#lengths.get(part)
    if (length === undefined) {
      length = JSON.stringify(part).length
      this.#lengths.set(part, length)
    }
    return length
  }
}
