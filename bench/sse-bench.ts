/**
 * `npm run bench:sse` (issue 22 F18): decodes one SSE event of 1, 5, 10 and 20 MB, arriving in
 * 64 KiB pieces, through the provider's decoder (`packages/llm-openai/src/sse-decoder.ts`) and
 * through the `openai` SDK's own stream decoder over the same bytes, and prints milliseconds and
 * milliseconds per MB of each. A linear decoder keeps ms/MB flat as the event grows.
 */
import { Stream } from 'openai/streaming'
import { SseDecoder } from '../packages/llm-openai/src/sse-decoder.ts'

const PIECE = 64 * 1024

function eventBytes(megabytes: number): Uint8Array {
  const text = 'x'.repeat(megabytes * 1024 * 1024)
  return new TextEncoder().encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\ndata: [DONE]\n\n`)
}

function pieces(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = []
  for (let offset = 0; offset < bytes.length; offset += PIECE) out.push(bytes.subarray(offset, offset + PIECE))
  return out
}

function ours(bytes: Uint8Array): number {
  const decoder = new SseDecoder()
  let length = 0
  for (const piece of pieces(bytes)) for (const data of decoder.push(piece).events) length += data.length
  return length
}

async function sdk(bytes: Uint8Array): Promise<number> {
  const parts = pieces(bytes)
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = parts.shift()
      if (next === undefined) controller.close()
      else controller.enqueue(next)
    },
  })
  const stream = Stream.fromSSEResponse(new Response(body), new AbortController())
  let length = 0
  for await (const chunk of stream) length += JSON.stringify(chunk).length
  return length
}

async function time(run: () => number | Promise<number>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}

console.log('event MB | ours ms (ms/MB) | SDK ms (ms/MB)')
for (const megabytes of [1, 5, 10, 20]) {
  const bytes = eventBytes(megabytes)
  const mine = await time(() => ours(bytes))
  const theirs = await time(() => sdk(bytes))
  console.log(`${String(megabytes).padStart(8)} | ${mine.toFixed(0).padStart(7)} (${(mine / megabytes).toFixed(1)}) | ${theirs.toFixed(0).padStart(6)} (${(theirs / megabytes).toFixed(1)})`)
}
