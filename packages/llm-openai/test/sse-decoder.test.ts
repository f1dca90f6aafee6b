/**
 * The SSE decoder alone: events split anywhere (inside a line, inside a UTF-8 character, between
 * CR and LF) come out whole; comments are never events nor progress; a growing `data` line is
 * progress. A property test cuts a stream at random points.
 */
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SseDecoder } from '../src/sse-decoder.ts'

const encode = (text: string): Uint8Array => new TextEncoder().encode(text)

function decodeInPieces(bytes: Uint8Array, cuts: readonly number[]): { events: string[]; partial: boolean[] } {
  const decoder = new SseDecoder()
  const events: string[] = []
  const partial: boolean[] = []
  let start = 0
  for (const cut of [...new Set(cuts)].toSorted((a, b) => a - b).concat(bytes.length)) {
    const piece = decoder.push(bytes.subarray(start, cut))
    events.push(...piece.events)
    partial.push(piece.partialData)
    start = cut
  }
  events.push(...decoder.end().events)
  return { events, partial }
}

describe('SseDecoder', () => {
  const stream = ': keep-alive\n\ndata: {"a":"é中"}\n\n: keep-alive\r\n\r\ndata: one\r\ndata: two\r\n\r\ndata:[DONE]\n\n'

  it('decodes whole: comments dropped, multi-line data joined, CRLF and LF alike', () => {
    expect(decodeInPieces(encode(stream), []).events).toEqual(['{"a":"é中"}', 'one\ntwo', '[DONE]'])
  })

  it('gives the same events however the bytes are cut', () => {
    const bytes = encode(stream)
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }), (cuts) => {
        expect(decodeInPieces(bytes, cuts).events).toEqual(['{"a":"é中"}', 'one\ntwo', '[DONE]'])
      }),
    )
  })

  it('a keep-alive comment is not progress; a data line on its way is', () => {
    const decoder = new SseDecoder()
    expect(decoder.push(encode(': keep-al'))).toEqual({ events: [], partialData: false })
    expect(decoder.push(encode('ive\n\n'))).toEqual({ events: [], partialData: false })
    expect(decoder.push(encode('data: {"big":"'))).toEqual({ events: [], partialData: true })
    expect(decoder.push(encode('xxxx'))).toEqual({ events: [], partialData: true })
    expect(decoder.push(encode('"}\n\n'))).toEqual({ events: ['{"big":"xxxx"}'], partialData: false })
  })

  it('an event not closed by a blank line at the end of the body is dropped', () => {
    const decoder = new SseDecoder()
    decoder.push(encode('data: half'))
    expect(decoder.end().events).toEqual([])
  })
})
