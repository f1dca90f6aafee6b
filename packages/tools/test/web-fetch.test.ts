// web_fetch against real HTTP servers on loopback (allowed for these tests only): an HTML page as
// Markdown with its title and absolute links, windows of a long page from one download, redirects
// on the same host followed and one to another host reported, error pages, binary bodies, gzip,
// another charset, the size cap and the deadline; and, with the default guard, loopback and
// private addresses refused before anything is sent.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { startPageServer, type PageServer } from '@dsh/testkit'
import { addressKind } from '../src/web-address.ts'
import { createWebFetchTool } from '../src/web-fetch-tool.ts'
import { call, runContext, seen } from './helpers.ts'

let server: PageServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** Serves `handler` on 127.0.0.1; resolves its port. */
async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<number> {
  server = await startPageServer(handler)
  return server.port
}

const run = runContext({ cwd: '/' })
const page = '<!doctype html><html><head><title>Guide &amp; notes</title><script>alert(1)</script></head><body><h1>Install</h1><p>Run <code>npm i</code>, then see <a href="/next">the next page</a>.</p></body></html>'

describe('web_fetch', () => {
  it('returns an HTML page as Markdown, with its title and absolute links', async () => {
    const port = await serve((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page))
    const tool = createWebFetchTool({ allowPrivateNetwork: true })
    expect(seen(await call(tool, { url: `http://127.0.0.1:${port}/guide#top` }, run))).toEqual({
      isError: false,
      content: `URL: http://127.0.0.1:${port}/guide\nStatus: 200 (text/html; charset=utf-8)\nTitle: Guide & notes\n\n# Install\n\nRun \`npm i\`, then see [the next page](http://127.0.0.1:${port}/next).`,
    })
  })

  it('pages a long text in windows from one download', async () => {
    let hits = 0
    const port = await serve((_request, response) => {
      hits++
      response.writeHead(200, { 'content-type': 'text/plain' }).end('abcdefghij'.repeat(3))
    })
    const tool = createWebFetchTool({ allowPrivateNetwork: true })
    const url = `http://127.0.0.1:${port}/long.txt`
    expect((await call(tool, { url, max_chars: 12 }, run)).content).toBe(`URL: ${url}\nStatus: 200 (text/plain)\n[Characters 1-12 of 30. Call web_fetch with the same url and start_char=13 for more.]\n\nabcdefghijab`)
    expect((await call(tool, { url, start_char: 25 }, run)).content).toBe(`URL: ${url}\nStatus: 200 (text/plain)\n[Characters 25-30 of 30.]\n\nefghij`)
    expect(seen(await call(tool, { url, start_char: 31 }, run))).toEqual({ isError: true, content: 'start_char 31 is past the end of the page, which has 30 characters. Use a start_char from 1 to 30.' })
    expect(hits).toBe(1)
  })

  it('follows a redirect on the same host and reports one to another host', async () => {
    const port = await serve((request, response) => {
      if (request.url === '/old') response.writeHead(301, { location: '/new' }).end()
      else if (request.url === '/away') response.writeHead(302, { location: `http://localhost:${port}/there` }).end()
      else response.writeHead(200, { 'content-type': 'text/markdown' }).end('# New place\n')
    })
    const tool = createWebFetchTool({ allowPrivateNetwork: true })
    expect((await call(tool, { url: `http://127.0.0.1:${port}/old` }, run)).content).toContain('# New place')
    expect(seen(await call(tool, { url: `http://127.0.0.1:${port}/away` }, run))).toEqual({
      isError: false,
      content: `http://127.0.0.1:${port}/away redirected (302) to http://localhost:${port}/there, on another host. It was not followed: call web_fetch with that URL if you want it.`,
    })
  })

  it('says what an error page, a binary body, gzip and another charset give', async () => {
    const port = await serve((request, response) => {
      if (request.url === '/missing') response.writeHead(404, { 'content-type': 'text/html' }).end('<p>No such page</p>')
      else if (request.url === '/file.bin') response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(64))
      else if (request.url === '/zipped') response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('unzipped text'))
      else response.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]))
    })
    const tool = createWebFetchTool({ allowPrivateNetwork: true })
    const base = `http://127.0.0.1:${port}`
    expect(seen(await call(tool, { url: `${base}/missing` }, run))).toEqual({ isError: true, content: `${base}/missing answered HTTP 404. The start of its page:\n\nNo such page` })
    expect(seen(await call(tool, { url: `${base}/file.bin` }, run))).toEqual({ isError: true, content: `${base}/file.bin is application/octet-stream (64 bytes), which web_fetch does not convert to text. If you need the file, download it with bash (curl -o FILE URL).` })
    expect((await call(tool, { url: `${base}/zipped` }, run)).content.endsWith('\n\nunzipped text')).toBe(true)
    expect((await call(tool, { url: `${base}/latin1` }, run)).content.endsWith('\n\ncafé')).toBe(true)
  })

  it('stops at 10 MB and at its deadline', async () => {
    const port = await serve((request, response) => {
      if (request.url === '/slow') return undefined
      response.writeHead(200, { 'content-type': 'text/plain' })
      const chunk = 'x'.repeat(1024 * 1024)
      for (let index = 0; index < 12; index++) response.write(chunk)
      response.end()
      return undefined
    })
    const big = await call(createWebFetchTool({ allowPrivateNetwork: true }), { url: `http://127.0.0.1:${port}/big`, max_chars: 10 }, run)
    expect(big.content).toContain('[Characters 1-10 of 10485760. Call web_fetch with the same url and start_char=11 for more.]\n[The page was larger than 10 MB: only its first 10 MB were converted.]')
    const slow = await call(createWebFetchTool({ allowPrivateNetwork: true, timeoutMs: 200 }), { url: `http://127.0.0.1:${port}/slow` }, run)
    expect(seen(slow)).toEqual({ isError: true, content: `web_fetch of http://127.0.0.1:${port}/slow timed out after 200 ms. Try again later, or a smaller page.` })
  })

  it('refuses loopback and private addresses, names and literals alike, before sending anything', async () => {
    let hits = 0
    const port = await serve((_request, response) => {
      hits++
      response.end('secret')
    })
    const tool = createWebFetchTool()
    expect(seen(await call(tool, { url: `http://127.0.0.1:${port}/` }, run))).toEqual({ isError: true, content: '127.0.0.1 resolves to 127.0.0.1, a loopback address: web_fetch reaches public addresses only. For a server on this machine or network, use bash (curl) instead.' })
    expect((await call(tool, { url: `http://localhost:${port}/` }, run)).content).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address/)
    expect((await call(tool, { url: 'http://[::ffff:169.254.169.254]/latest/meta-data' }, run)).content).toContain('a link-local address')
    expect(hits).toBe(0)
    expect(seen(await call(tool, { url: 'file:///etc/passwd' }, run))).toEqual({ isError: true, content: 'web_fetch takes an absolute http or https URL; "file:///etc/passwd" is not one.' })
    expect((await call(tool, { url: 'https://user:pw@example.com/' }, run)).content).toBe('web_fetch does not send a user name or password written into the URL. Fetch the page without them.')
  })
})

describe('the address guard', () => {
  it('knows the ranges that are not public', () => {
    const kinds = ['127.0.0.1', '10.1.2.3', '172.31.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fc00::1', 'fe80::1', 'ff02::1', '::ffff:10.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::', '2001:db8::1'].map(addressKind)
    expect(kinds).toEqual(['loopback', 'private', 'private', 'private', 'link-local', 'shared', 'unspecified', 'multicast', 'reserved', 'loopback', 'unspecified', 'private', 'link-local', 'multicast', 'private', 'loopback', 'loopback', 'documentation'])
    expect(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1', '::ffff:8.8.8.8'].map(addressKind)).toEqual([undefined, undefined, undefined, undefined, undefined])
  })
})
