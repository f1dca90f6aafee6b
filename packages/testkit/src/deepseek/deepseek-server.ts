/**
 * A loopback imitation of DeepSeek's chat-completions API as documented in late 2026, for
 * provider end-to-end tests and the cache benchmark: `POST /chat/completions` (also under `/v1`
 * and `/beta`) streams scripted answers in DeepSeek's chunk shapes after `: keep-alive` comments,
 * refuses what DeepSeek refuses (`request-rules.ts`), injects the stream faults seen in the wild,
 * and reports prompt-cache hits from a model of the documented cache units (`prefix-cache.ts`);
 * `GET /models` lists the served names. Every request is recorded.
 */
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { realDelay } from '../driven-clock.ts'
import { answerChunks } from './deepseek-chunks.ts'
import { concurrencyExceeded, insufficientBalance, serverFailure, authenticationFails, type DeepSeekError } from './deepseek-errors.ts'
import type { DeepSeekAnswer, DeepSeekRecord, DeepSeekServerOptions } from './deepseek-types.ts'
import { PrefixCache } from './prefix-cache.ts'
import { asRecord, renderAssistant, renderPrompt, thinkingOn } from './prompt-rendering.ts'
import { DEFAULT_SERVED_MODELS, refusalOf } from './request-rules.ts'

/** A running imitation. */
export interface DeepSeekServer extends AsyncDisposable {
  /** Base URL as DeepSeek's (`http://127.0.0.1:PORT`, no `/v1`). */
  readonly baseUrl: string
  /** Every request, in arrival order, recorded once it was answered (or cut). */
  readonly records: DeepSeekRecord[]
  /** Stops the server and drops open connections. */
  close(): Promise<void>
}

const CHAT_PATHS = new Set(['/chat/completions', '/v1/chat/completions', '/beta/chat/completions'])
const MODEL_PATHS = new Set(['/models', '/v1/models'])

/** Starts the imitation on 127.0.0.1, port 0. */
export async function startDeepSeekServer(options: DeepSeekServerOptions): Promise<DeepSeekServer> {
  const records: DeepSeekRecord[] = []
  const cache = new PrefixCache()
  let accepted = 0
  let seed = 0
  const pickAnswer = (body: Readonly<Record<string, unknown>>): DeepSeekAnswer => {
    const index = accepted++
    const { answers } = options
    const answer = typeof answers === 'function' ? answers({ body, index }) : answers[Math.min(index, answers.length - 1)]
    if (answer === undefined) throw new Error('deepseek-server: no answers scripted')
    return answer
  }
  const listener: RequestListener = (req, res) => {
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8')
      const base = { method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization }
      const path = (req.url ?? '').split('?')[0] ?? ''
      if (req.method === 'GET' && MODEL_PATHS.has(path)) {
        const refused = options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}` ? authenticationFails(req.headers.authorization ?? '') : undefined
        if (refused !== undefined) return refuse(res, refused, records, { ...base, body: undefined })
        const names = options.listedModels ?? ['deepseek-flash', 'deepseek-v4-pro']
        sendJson(res, 200, { object: 'list', data: names.map((id) => ({ id, object: 'model', owned_by: 'deepseek' })) })
        records.push({ ...base, body: undefined, status: 200 })
        return undefined
      }
      if (req.method !== 'POST' || !CHAT_PATHS.has(path)) {
        sendJson(res, 404, { error: { message: 'Not Found', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } })
        records.push({ ...base, body: undefined, status: 404 })
        return undefined
      }
      let body: Readonly<Record<string, unknown>>
      try {
        body = asRecord(JSON.parse(text))
      } catch {
        // Swallows the parse error: DeepSeek answers a body it cannot read with a 400 like this one.
        return refuse(res, { status: 400, body: { error: { message: 'Failed to deserialize the JSON body into the target type', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } }, records, { ...base, body: undefined })
      }
      const prompt = renderPrompt(body)
      const refusal = refusalOf({
        body,
        authorization: req.headers.authorization,
        apiKey: options.apiKey,
        servedModels: options.servedModels ?? DEFAULT_SERVED_MODELS,
        reasoningRule: options.reasoningRule ?? 'strict',
        contextWindow: options.contextWindow ?? 1_048_576,
        prompt,
      })
      if (refusal !== undefined) return refuse(res, refusal, records, { ...base, body })
      const answer = pickAnswer(body)
      if (answer.status !== undefined && answer.htmlBody === true) return refuseWithHtml(res, answer.status, records, { ...base, body })
      if (answer.status !== undefined) return refuse(res, statusError(answer.status, req), records, { ...base, body })
      const report = cache.lookup(prompt)
      const thinking = thinkingOn(body)
      const built = answerChunks({ answer, model: String(body.model), thinking, seed: seed++, cache: report })
      // The output unit holds the answer as generated, reasoning included in thinking mode.
      const promptWithAnswer = prompt + renderAssistant(built.message, thinking)
      void stream(res, answer, built.chunks, built.cutAfter, options.keepAliveEveryMs ?? 20).then((finished) => {
        cache.store(prompt, finished ? promptWithAnswer : undefined)
        records.push({ ...base, body, status: 200, prompt, ...(finished ? { promptWithAnswer } : {}), cache: report })
      })
      return undefined
    })
  }
  // With `tls`, HTTPS on the certificate given (the client must trust it, e.g. NODE_EXTRA_CA_CERTS).
  const server = options.tls === undefined ? createHttpServer(listener) : createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('deepseek-server: not listening on TCP')
  const close = async (): Promise<void> => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  return { baseUrl: `${options.tls === undefined ? 'http' : 'https'}://${options.tls?.host ?? '127.0.0.1'}:${address.port}`, records, close, [Symbol.asyncDispose]: close }
}

function statusError(status: NonNullable<DeepSeekAnswer['status']>, req: IncomingMessage): DeepSeekError {
  switch (status) {
    case 401:
      return authenticationFails(req.headers.authorization?.replace(/^Bearer /, '') ?? '')
    case 402:
      return insufficientBalance()
    case 429:
      return concurrencyExceeded()
    default:
      return serverFailure(status)
  }
}

function refuse(res: ServerResponse, error: DeepSeekError, records: DeepSeekRecord[], base: Omit<DeepSeekRecord, 'status'>): undefined {
  sendJson(res, error.status, error.body)
  records.push({ ...base, status: error.status, error: { message: error.body.error.message, type: error.body.error.type } })
  return undefined
}

/** A proxy's error page (nginx-like), as a gateway in front of the API sends it; not DeepSeek's own text. */
function refuseWithHtml(res: ServerResponse, status: number, records: DeepSeekRecord[], base: Omit<DeepSeekRecord, 'status'>): undefined {
  const title = `${status} ${status === 503 ? 'Service Temporarily Unavailable' : 'Internal Server Error'}`
  const page = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n${'<!-- padding -->\r\n'.repeat(40)}`
  res.writeHead(status, { 'content-type': 'text/html' })
  res.end(page)
  records.push({ ...base, status, error: { message: title, type: 'html' } })
  return undefined
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  // No x-ratelimit-* headers: DeepSeek sends none.
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** Streams one answer (or its fault); resolves true when the answer ended with its final chunk and `[DONE]`. */
async function stream(res: ServerResponse, answer: DeepSeekAnswer, chunks: readonly object[], cutAfter: number, keepAliveEveryMs: number): Promise<boolean> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' })
  res.flushHeaders()
  if (answer.fault === 'headers-then-silence') return closed(res)
  for (let index = 0; index < (answer.keepAlives ?? 1); index++) await write(res, ': keep-alive\n\n')
  const fault = answer.fault
  const sendCount = fault === 'stall' || fault === 'reset' ? cutAfter : fault === 'keep-alive-only' ? chunks.length - 1 : chunks.length
  if (fault === 'empty-chunks' || fault === 'trickle') {
    const [first] = chunks
    if (first !== undefined) await write(res, `data: ${JSON.stringify(first)}\n\n`)
    const delta = fault === 'trickle' ? { content: null, reasoning_content: '.' } : {}
    const empty = { ...first, choices: [{ index: 0, delta, logprobs: null, finish_reason: null }] }
    const timer = setInterval(() => void write(res, `data: ${JSON.stringify(empty)}\n\n`), keepAliveEveryMs)
    await closed(res)
    clearInterval(timer)
    return false
  }
  for (const chunk of chunks.slice(0, sendCount)) {
    const line = `data: ${JSON.stringify(chunk)}\n\n`
    if (answer.bigEvent !== undefined && line.length > answer.bigEvent.bytesPerWrite) await dribble(res, line, answer.bigEvent)
    else await write(res, line)
  }
  if (fault === 'reset') {
    res.socket?.destroy()
    return false
  }
  if (fault === 'stall') return closed(res)
  if (fault === 'keep-alive-only') {
    const timer = setInterval(() => void write(res, ': keep-alive\n\n'), keepAliveEveryMs)
    await closed(res)
    clearInterval(timer)
    return false
  }
  await write(res, 'data: [DONE]\n\n')
  res.end()
  return true
}

/** Writes `text` a few bytes at a time with pauses (one big event on a slow link). */
async function dribble(res: ServerResponse, text: string, pace: { readonly bytesPerWrite: number; readonly everyMs: number }): Promise<void> {
  const bytes = Buffer.from(text, 'utf8')
  for (let offset = 0; offset < bytes.length && !res.destroyed; offset += pace.bytesPerWrite) {
    await new Promise<void>((resolve) => {
      if (res.destroyed) resolve()
      else res.write(bytes.subarray(offset, offset + pace.bytesPerWrite), () => resolve())
    })
    // Real time even when the test fakes the clock (the server is the world, not the code under test).
    await realDelay(pace.everyMs)
  }
}

/** Resolves false once the client has left. */
function closed(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed) resolve(false)
    else res.once('close', () => resolve(false))
  })
}

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) {
      resolve()
      return
    }
    res.write(text, () => resolve())
  })
}
