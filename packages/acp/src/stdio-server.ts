/**
 * The ACP connection over standard input and output: newline-delimited JSON-RPC, nothing else on
 * stdout. `closed` settles when the client closes its end (stdin EOF) or `close()` is called (a
 * signal); standard input is then destroyed so that nothing keeps the process alive. A line that
 * is not JSON is answered with a JSON-RPC `-32700` Parse error (`id: null`, as JSON-RPC 2.0 says)
 * instead of being dropped silently; blank lines are ignored.
 */
import type { Readable } from 'node:stream'
import { Writable } from 'node:stream'
import { ndJsonStream, type AgentApp } from '@agentclientprotocol/sdk'

/** A served connection. */
export interface StdioServer {
  /** Settles when the connection has closed. */
  readonly closed: Promise<void>
  /** Closes the connection (pending requests are rejected). */
  close(): void
}

/** The JSON-RPC answer to a line that is not JSON, or the empty string when `line` is JSON. */
export function parseErrorLine(line: string): string {
  let reason: string
  try {
    JSON.parse(line)
    return ''
  } catch (error) {
    // The failure is the answer: it is sent to the client as the Parse error's data.
    reason = error instanceof Error ? error.message : String(error)
  }
  return `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error', data: { reason, line: line.length > 200 ? `${line.slice(0, 200)}…` : line } } })}\n`
}

/**
 * The bytes of `input` as a web stream of whole lines (it ends with the input); a line that is not
 * JSON is answered through `reject` and not passed on.
 */
function bytesOf(input: Readable, reject: (answer: string) => void): ReadableStream<Uint8Array> {
  // The pieces of the line being received (kept apart so a long line is joined once, not per chunk).
  let parts: Buffer[] = []
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const pass = (line: Buffer): void => {
        const text = line.toString('utf8').trim()
        if (text === '') return
        const answer = parseErrorLine(text)
        if (answer === '') controller.enqueue(Buffer.concat([line, Buffer.from('\n')]))
        else reject(answer)
      }
      input.on('data', (data: Buffer | string) => {
        let chunk = typeof data === 'string' ? Buffer.from(data) : data
        for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a)) {
          parts.push(chunk.subarray(0, newline))
          pass(parts.length === 1 ? (parts[0] ?? Buffer.alloc(0)) : Buffer.concat(parts))
          parts = []
          chunk = chunk.subarray(newline + 1)
        }
        if (chunk.length > 0) parts.push(chunk)
      })
      input.once('end', () => {
        if (parts.length > 0) pass(Buffer.concat(parts))
        controller.close()
      })
      input.once('error', (error) => controller.error(error))
    },
    cancel() {
      input.destroy()
    },
  })
}

/** Serves `app` on `input` / `output` (the process's stdin and stdout). */
export function serveStdio(app: AgentApp, streams: { readonly input: Readable; readonly output: Writable }): StdioServer {
  const connection = app.connect(ndJsonStream(Writable.toWeb(streams.output), bytesOf(streams.input, (answer) => streams.output.write(answer))))
  return {
    closed: connection.closed.finally(() => streams.input.destroy()),
    close: () => connection.close(),
  }
}
