// web_fetch behind an HTTP proxy, in process with Debian's tinyproxy and a page server on loopback:
// an http page is asked of the proxy with its absolute URL; a tunnel the proxy refuses, a proxy
// that is down and a proxy variable that is no URL are error results naming the proxy (its password
// masked); credentials in the proxy URL are sent; a certificate this process does not trust fails the download, never the process;
// a name that resolves here to a private address is refused before the proxy is asked;
// NO_PROXY sends a host direct.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { proxySettings } from '@dsh/runtime'
import { startPageServer, startTinyproxy, type PageServer, type Tinyproxy } from '@dsh/testkit'
import { createWebFetchTool } from '../src/web-fetch-tool.ts'
import { call, runContext, seen } from './helpers.ts'

let page: PageServer | undefined
let proxy: Tinyproxy | undefined
let secure: Server | undefined
afterEach(async () => {
  secure?.closeAllConnections()
  await new Promise<void>((resolve) => (secure === undefined ? resolve() : secure.close(() => resolve())))
  secure = undefined
  await proxy?.close()
  await page?.close()
  proxy = undefined
  page = undefined
})

const run = runContext({ cwd: '/' })

/** What web_fetch of `url` returns with the proxy variables `env`. */
const fetchWith = async (env: Record<string, string>, url: string, allowPrivateNetwork = true): Promise<{ isError: boolean; content: string }> =>
  seen(await call(createWebFetchTool({ allowPrivateNetwork, proxy: proxySettings(env), timeoutMs: 20_000 }), { url }, run))

describe('web_fetch through an HTTP proxy', () => {
  it('asks the proxy for an http page by its absolute URL, and goes direct for a host NO_PROXY names', async () => {
    let served = 0
    page = await startPageServer((_request, response) => {
      served += 1
      response.writeHead(200, { 'content-type': 'text/plain' }).end('page text')
    })
    proxy = await startTinyproxy()
    const proxied = await fetchWith({ HTTP_PROXY: proxy.url }, page.url('/notes.txt'))
    expect(proxied.content).toContain('page text')
    await expect.poll(() => proxy?.log().includes(`GET ${page?.url('/notes.txt')} HTTP/1.1`), { timeout: 20_000 }).toBe(true)
    const direct = await fetchWith({ HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1' }, page.url('/direct.txt'))
    expect(direct.content).toContain('page text')
    expect(served).toBe(2)
  }, 60_000)

  it('names the proxy when it refuses the tunnel, is down or is no URL', async () => {
    page = await startPageServer((_request, response) => response.writeHead(200).end('never'))
    // Tunnels to port 443 only: a tunnel to the page server's port is refused with 403.
    proxy = await startTinyproxy({ connectPorts: [443] })
    const refused = await fetchWith({ HTTPS_PROXY: `http://user:s3cret@127.0.0.1:${proxy.port}` }, `https://127.0.0.1:${page.port}/`)
    expect(refused.isError).toBe(true)
    expect(refused.content).toContain(`the proxy http://***@127.0.0.1:${proxy.port} refused the tunnel to 127.0.0.1:${page.port} (HTTP 403)`)
    expect(refused.content).not.toContain('s3cret')
    const port = proxy.port
    await proxy.close()
    proxy = undefined
    const down = await fetchWith({ HTTPS_PROXY: `http://127.0.0.1:${port}` }, `https://127.0.0.1:${page.port}/`)
    expect(down.content).toContain(`cannot reach the proxy http://127.0.0.1:${port}: connect ECONNREFUSED`)
    const notUrl = await fetchWith({ HTTP_PROXY: 'proxy.corp:3128' }, page.url('/'))
    expect(notUrl.content).toContain('the proxy proxy.corp:3128 is not an http:// proxy')
  }, 60_000)

  it("fails the download, not the process, when the page's certificate is not trusted", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-cert-'))
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' })
      secure = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_request, response) => response.end('never seen'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    let connections = 0
    secure.on('connection', () => (connections += 1))
    await new Promise<void>((resolve) => secure?.listen(0, '127.0.0.1', resolve))
    const address = secure.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    proxy = await startTinyproxy()
    for (let round = 0; round < 5; round++) {
      const answer = await fetchWith({ HTTPS_PROXY: proxy.url }, `https://127.0.0.1:${port}/`)
      expect(answer.isError).toBe(true)
      expect(answer.content).toContain('failed: self-signed certificate')
    }
    // One connection per download, the tunnel's: none went to the page directly, past the proxy.
    expect(connections).toBe(5)
    await expect.poll(() => proxy?.log().split(`CONNECT 127.0.0.1:${port} HTTP/1.1`).length, { timeout: 20_000 }).toBe(6)
  }, 60_000)

  it('sends the credentials of the proxy URL, percent-decoded, and names a proxy that wants others', async () => {
    page = await startPageServer((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('members only'))
    proxy = await startTinyproxy({ basicAuth: { user: 'dev', password: 'p.ss' } })
    const allowed = await fetchWith({ HTTP_PROXY: `http://dev:p%2Ess@127.0.0.1:${proxy.port}` }, page.url('/m.txt'))
    expect(allowed.content).toContain('members only')
    const tunnelled = await fetchWith({ HTTPS_PROXY: `http://dev:wrong@127.0.0.1:${proxy.port}` }, `https://127.0.0.1:${page.port}/`)
    // tinyproxy answers wrong credentials with 401 (none at all with 407).
    expect(tunnelled.content).toContain(`the proxy http://***@127.0.0.1:${proxy.port} refused the tunnel to 127.0.0.1:${page.port} (HTTP 401)`)
    // A user name that is no valid percent-encoding is sent as written (and refused), never a crash.
    const odd = await fetchWith({ HTTP_PROXY: `http://d%zz:x@127.0.0.1:${proxy.port}` }, page.url('/m.txt'))
    expect(odd.isError).toBe(true)
    expect(odd.content).toMatch(/HTTP 40[17]/)
  }, 60_000)

  it('refuses a name that resolves here to a private address before asking the proxy', async () => {
    proxy = await startTinyproxy()
    const refused = await fetchWith({ HTTP_PROXY: proxy.url }, 'http://localhost:8080/admin', false)
    expect(refused.isError).toBe(true)
    expect(refused.content).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/)
    expect(proxy.log()).not.toContain('localhost:8080')
  }, 60_000)
})
