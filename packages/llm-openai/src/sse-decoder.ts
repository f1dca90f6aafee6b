/**
 * Server-sent events, decoded in linear time: bytes in, the `data` payloads of complete events
 * out, plus whether the bytes were progress. A line is searched for its end only in the bytes
 * that arrived since the last search, and a long line is kept as a list of pieces joined once, so
 * one 20 MB event costs one pass (issue 22 F18). Comment lines (`: keep-alive`, DeepSeek's sign of
 * a queued request, research notes §3.3) are never progress; an unfinished `data` line that grew
 * is (a big event on its way is not silence).
 */

/** What one `push` produced. */
export interface DecodedBytes {
  /** `data` payloads of the events completed by these bytes (multi-line data joined by `\n`). */
  readonly events: readonly string[]
  /** True when an unfinished `data` line grew: part of an event arrived. */
  readonly partialData: boolean
}

/** Stateful decoder for one response body. */
export class SseDecoder {
  readonly #text = new TextDecoder('utf-8')
  /** Pieces of the current, unfinished line. */
  #pieces: string[] = []
  /** Whether the unfinished line is known to be a `data` line (undefined until its first characters arrive). */
  #lineKind: 'data' | 'other' | undefined
  /** `data` lines of the current event. */
  #data: string[] = []
  #sawCarriageReturn = false

  /** Decodes `bytes`. */
  push(bytes: Uint8Array): DecodedBytes {
    return this.#feed(this.#text.decode(bytes, { stream: true }))
  }

  /** Decodes what is left once the body ended (an event not closed by a blank line is dropped, as the SSE rules say). */
  end(): DecodedBytes {
    const rest = this.#feed(this.#text.decode())
    return { events: rest.events, partialData: false }
  }

  #feed(chunk: string): DecodedBytes {
    const events: string[] = []
    let start = 0
    if (this.#sawCarriageReturn && chunk.startsWith('\n')) start = 1
    this.#sawCarriageReturn = false
    for (let index = start; index < chunk.length; index++) {
      const code = chunk.charCodeAt(index)
      if (code !== 10 && code !== 13) continue
      this.#pieces.push(chunk.slice(start, index))
      const line = this.#pieces.length === 1 ? (this.#pieces[0] ?? '') : this.#pieces.join('')
      this.#pieces = []
      this.#lineKind = undefined
      const event = this.#line(line)
      if (event !== undefined) events.push(event)
      if (code === 13) {
        if (index + 1 === chunk.length) this.#sawCarriageReturn = true
        else if (chunk.charCodeAt(index + 1) === 10) index += 1
      }
      start = index + 1
    }
    let partialData = false
    if (start < chunk.length) {
      const piece = chunk.slice(start)
      this.#pieces.push(piece)
      this.#lineKind ??= kindOf(this.#pieces.join(''))
      partialData = this.#lineKind === 'data'
    }
    return { events, partialData }
  }

  /** Handles one complete line; returns an event's data when the line ends the event. */
  #line(line: string): string | undefined {
    if (line === '') {
      if (this.#data.length === 0) return undefined
      const data = this.#data.length === 1 ? (this.#data[0] ?? '') : this.#data.join('\n')
      this.#data = []
      return data
    }
    if (line.startsWith(':')) return undefined
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    if (field !== 'data') return undefined
    const value = colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1)
    this.#data.push(value)
    return undefined
  }
}

/** The kind of an unfinished line from its first characters; undefined while too short to tell. */
function kindOf(start: string): 'data' | 'other' | undefined {
  if (start.length >= 5) return start.startsWith('data:') ? 'data' : 'other'
  return 'data:'.startsWith(start) ? undefined : 'other'
}
