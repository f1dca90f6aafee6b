/**
 * A plain HTTP server on loopback for tests of what fetches pages (`web_fetch`): each request is
 * answered by the test's handler; `close` ends open connections first, so a test never waits for
 * a keep-alive socket, and may be called more than once.
 */
import { createServer, type RequestListener } from 'node:http'

export interface PageServer {
  /** The port it listens on (127.0.0.1). */
  readonly port: number
  /** `http://127.0.0.1:PORT` followed by `path` (which starts with `/`). */
  url(path: string): string
  /** Closes the server and every open connection; resolves once closed. */
  close(): Promise<void>
}

/** Starts a server on 127.0.0.1 with a port the system picks. */
export async function startPageServer(handler: RequestListener): Promise<PageServer> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  let closed: Promise<void> | undefined
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
      return closed
    },
  }
}
