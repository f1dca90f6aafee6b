/**
 * A TCP port on 127.0.0.1 that nothing listens on at the time of asking: the kernel's choice for a
 * socket bound to port 0, closed again before this resolves. For a server a test starts on a
 * port it must name (tinyproxy, server-everything's HTTP mode), or an address that refuses
 * connections; another process may take it meanwhile, so a starter that cannot bind tries again.
 */
import { createServer } from 'node:net'

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('free-port: the kernel gave no port'))))
    })
  })
}
