// dsh behind an HTTP proxy, through the built binary, with Debian's tinyproxy (a real proxy) in
// front of the testkit's DeepSeek imitation on loopback: with HTTP_PROXY set every model request
// goes through the proxy (tunnelled with CONNECT, as undici sends every proxied request, which
// tinyproxy logs); the lowercase variable wins; NO_PROXY naming the host
// sends it direct; an https endpoint is reached through the proxy's tunnel with TLS end to end
// (a certificate made with openssl, trusted through NODE_EXTRA_CA_CERTS), and so is a page web_fetch
// reads, whose certificate is checked through the tunnel; dsh models asks through it too; a proxy that is down is one error line naming
// the proxy, its credentials masked.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer as createHttpsServer, type Server } from 'node:https'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort, startDeepSeekServer, startTinyproxy, tempTree, type DeepSeekServer, type TempTree, type Tinyproxy } from '@dsh/testkit'
import { readRequests, runDsh, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
let server: DeepSeekServer | undefined
let proxy: Tinyproxy | undefined
let pages: Server | undefined
afterEach(async () => {
  pages?.closeAllConnections()
  await new Promise<void>((resolve) => (pages === undefined ? resolve() : pages.close(() => resolve())))
  pages = undefined
  await proxy?.close()
  await server?.close()
  await tree?.dispose()
  proxy = undefined
  server = undefined
})

const key = { DEEPSEEK_API_KEY: 'sk-test-key-1234' }

/** A certificate for 127.0.0.1 made with openssl, as an operator would, in `dir`; dsh trusts it through NODE_EXTRA_CA_CERTS. */
function certificate(dir: string): { key: string; cert: string; file: string } {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' })
  return { key: readFileSync(`${dir}/key.pem`, 'utf8'), cert: readFileSync(`${dir}/cert.pem`, 'utf8'), file: `${dir}/cert.pem` }
}

describe('dsh behind an HTTP proxy', { timeout: 120_000 }, () => {
  it('sends model requests through HTTP_PROXY, and direct to a host NO_PROXY names', async () => {
    tree = await tempTree({ 'repo/.git/': null })
    server = await startDeepSeekServer({ answers: [{ text: 'Through the proxy.' }], apiKey: key.DEEPSEEK_API_KEY })
    proxy = await startTinyproxy()
    const run = (env: Record<string, string>) => runDsh(['--dsh-home', tree?.path('home') ?? '', 'run', '--cwd', tree?.path('repo') ?? '', '--base-url', server?.baseUrl ?? '', 'hi'], { cwd: tree?.root ?? '', env: { ...key, ...env } })
    // The lowercase name wins, as with curl (the uppercase one names a port nothing listens on).
    const proxied = await run({ http_proxy: proxy.url, HTTP_PROXY: `http://127.0.0.1:${await freePort()}` })
    expect(proxied, proxied.stderr).toMatchObject({ code: 0, stdout: 'Through the proxy.\n' })
    expect(server.records).toHaveLength(1)
    // tinyproxy logs the tunnel it opened to the server (its log arrives through a pipe: poll).
    const tunnel = `CONNECT ${new URL(server.baseUrl).host} HTTP/1.1`
    await expect.poll(() => proxy?.log().includes(tunnel), { timeout: 20_000 }).toBe(true)
    // NO_PROXY naming the host sends the request direct: the proxy named is not even listening.
    const direct = await run({ HTTP_PROXY: `http://127.0.0.1:${await freePort()}`, NO_PROXY: 'localhost,127.0.0.1' })
    expect(direct, direct.stderr).toMatchObject({ code: 0, stdout: 'Through the proxy.\n' })
    expect(server.records).toHaveLength(2)
    // dsh models asks through the same proxy: a proxy that is not listening fails it, naming the proxy.
    const models = await runDsh(['--dsh-home', tree.path('home'), 'models', '--base-url', server.baseUrl], { cwd: tree.root, env: { ...key, HTTP_PROXY: proxy.url } })
    expect(models, models.stderr).toMatchObject({ code: 0 })
    expect(models.stdout).toContain('deepseek-v4-pro')
    const port = await freePort()
    const refused = await runDsh(['--dsh-home', tree.path('home'), 'models', '--base-url', server.baseUrl], { cwd: tree.root, env: { ...key, HTTP_PROXY: `http://127.0.0.1:${port}` } })
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain(`cannot reach ${server.baseUrl} through the proxy http://127.0.0.1:${port}`)
    expect(server.records).toHaveLength(3)
  })

  it('reaches an https endpoint through the tunnel, TLS end to end', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'tls/': null })
    const tls = certificate(tree.path('tls'))
    server = await startDeepSeekServer({ answers: [{ text: 'Over TLS.' }], apiKey: key.DEEPSEEK_API_KEY, tls })
    expect(server.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:/)
    proxy = await startTinyproxy()
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--base-url', server.baseUrl, 'hi'], { cwd: tree.root, env: { ...key, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: tls.file } })
    expect(result, result.stderr).toMatchObject({ code: 0, stdout: 'Over TLS.\n' })
    expect(server.records.map((record) => record.authorization)).toEqual([`Bearer ${key.DEEPSEEK_API_KEY}`])
    const tunnel = `CONNECT ${new URL(server.baseUrl).host} HTTP/1.1`
    await expect.poll(() => proxy?.log().includes(tunnel), { timeout: 20_000 }).toBe(true)
    // The proxy saw a tunnel, never the request inside it: no path, no key in its log.
    expect(proxy.log()).not.toContain('/chat/completions')
    expect(proxy.log()).not.toContain(key.DEEPSEEK_API_KEY)
  })

  it('web_fetch reads an https page through the tunnel, its certificate checked', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'tls/': null, 'private.yaml': 'agent:\n  webFetchPrivateNetwork: true\n' })
    const tls = certificate(tree.path('tls'))
    pages = createHttpsServer({ key: tls.key, cert: tls.cert }, (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('Release notes: all green.'))
    let connections = 0
    pages.on('connection', () => (connections += 1))
    await new Promise<void>((resolve) => pages?.listen(0, '127.0.0.1', resolve))
    const address = pages.address()
    const url = `https://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/notes.txt`
    proxy = await startTinyproxy()
    const script = writeScript(tree.root, 'fetch.json', { responses: [{ toolCalls: [{ name: 'web_fetch', arguments: { url } }] }, { text: 'read it' }] })
    const fetchOnce = async (name: string, extraEnv: Record<string, string>): Promise<string> => {
      const log = tree?.path(`${name}.jsonl`) ?? ''
      const result = await runDsh(['--dsh-home', tree?.path('home') ?? '', 'run', '--cwd', tree?.path('repo') ?? '', '--model', `scripted:${script}`, '--request-log', log, '--config', tree?.path('private.yaml') ?? '', '--permission-mode', 'full-auto', 'read the notes'], { cwd: tree?.root ?? '', env: { HTTPS_PROXY: proxy?.url ?? '', ...extraEnv } })
      expect(result.code, result.stderr).toBe(0)
      const last = readRequests(log).at(-1)?.messages ?? []
      return last.filter((message) => message.role === 'tool').map((message) => message.content ?? '').join('\n')
    }
    expect(await fetchOnce('trusted', { NODE_EXTRA_CA_CERTS: tls.file })).toBe(`URL: ${url}\nStatus: 200 (text/plain)\n\nRelease notes: all green.`)
    await expect.poll(() => proxy?.log().includes(`CONNECT ${new URL(url).host} HTTP/1.1`), { timeout: 20_000 }).toBe(true)
    // The one connection the page server saw was the tunnel's: nothing went to it directly.
    expect(connections).toBe(1)
    // Without trusting the certificate the tunnel carries TLS that fails its check: no page.
    expect(await fetchOnce('untrusted', {})).toMatch(/^web_fetch of https:\/\/127\.0\.0\.1:\d+\/notes\.txt failed: self[- ]signed certificate/)
  })

  it('names the proxy, without its password, when the proxy cannot be reached', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'once.yaml': 'model:\n  maxRetries: 0\n' })
    server = await startDeepSeekServer({ answers: [{ text: 'unreachable' }], apiKey: key.DEEPSEEK_API_KEY })
    const port = await freePort()
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--config', tree.path('once.yaml'), '--base-url', server.baseUrl, 'hi'], { cwd: tree.root, env: { ...key, HTTPS_PROXY: 'http://nobody:s3cret@127.0.0.1:1', HTTP_PROXY: `http://nobody:s3cret@127.0.0.1:${port}` } })
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain(`cannot reach ${server.baseUrl} through the proxy http://***@127.0.0.1:${port}: `)
    expect(result.stderr).not.toContain('s3cret')
    expect(server.records).toHaveLength(0)
  })
})
