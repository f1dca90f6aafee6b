/**
 * The ACP connection over standard input and output: newline-delimited JSON-RPC, nothing else on
 * stdout. `closed` settles when the client closes its end (stdin EOF) or `close()` is called (a
 * signal); standard input is then destroyed so that nothing keeps the process alive.
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

/** The bytes of `input` as a web stream (it ends with the input). */
function bytesOf(input: Readable): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      input.on('data', (chunk: Buffer | string) => controller.enqueue(typeof chunk === 'string' ? Buffer.from(chunk) : chunk))
      input.once('end', () => controller.close())
      input.once('error', (error) => controller.error(error))
    },
    cancel() {
      input.destroy()
    },
  })
}

/** Serves `app` on `input` / `output` (the process's stdin and stdout). */
export function serveStdio(app: AgentApp, streams: { readonly input: Readable; readonly output: Writable }): StdioServer {
  const connection = app.connect(ndJsonStream(Writable.toWeb(streams.output), bytesOf(streams.input)))
  return {
    closed: connection.closed.finally(() => streams.input.destroy()),
    close: () => connection.close(),
  }
}
