// Starts the built `dsh web` as a user would (temp home, scripted model), reads the URL line it
// prints, and offers what the web tests need: authorised JSON calls, an SSE reader, and stop.
import { spawn, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { dshBinary, testEnv } from './run-dsh.ts'

/** How long a start or an awaited event may take before it counts as hung: generous for a loaded machine. */
const HANG_GUARD_MS = 60_000

/** An event of a session's stream as the tests read it (the shape of `WebEvent` in packages/web). */
export interface StreamEvent {
  readonly kind: string
  readonly text?: string
  readonly busy?: boolean
  readonly event?: { readonly type: string; readonly text?: string; readonly reason?: string }
  readonly approval?: { readonly id: string; readonly tool: string; readonly code: string; readonly always: unknown }
}

/** A running `dsh web`. */
export interface WebProcess {
  readonly url: string
  readonly origin: string
  readonly port: number
  readonly token: string
  readonly child: ChildProcess
  /** What it wrote on stdout and stderr so far. */
  output(): { stdout: string; stderr: string }
  /** A JSON call with the token in the Authorization header. */
  // oxlint-disable-next-line typescript/no-unnecessary-type-parameters -- the caller names the answer shape of the route it calls
  api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; }>
  /** SIGTERM, then waits for the exit code. */
  stop(): Promise<number | null>
}

/** Starts `dsh web --port 0 ARGS…` in `cwd` with `DSH_HOME=home`. */
export function startWeb(args: readonly string[], options: { readonly cwd: string; readonly home: string; readonly env?: Record<string, string> }): Promise<WebProcess> {
  const child = spawn(dshBinary, ['web', '--port', '0', ...args], { cwd: options.cwd, env: testEnv(options.cwd, { NO_COLOR: '1', DSH_HOME: options.home, ...options.env }), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`dsh web printed no URL within ${HANG_GUARD_MS / 1000} s\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, HANG_GUARD_MS)
    child.on('close', (code) => {
      clearTimeout(timer)
      reject(new Error(`dsh web exited with ${code} before printing its URL\nstdout: ${stdout}\nstderr: ${stderr}`))
    })
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const line = stdout.split('\n')[0]
      if (!stdout.includes('\n') || line === undefined) return
      clearTimeout(timer)
      const url = new URL(line)
      const token = url.searchParams.get('token') ?? ''
      const origin = `http://127.0.0.1:${url.port}`
      resolve({
        url: line,
        origin,
        port: Number(url.port),
        token,
        child,
        output: () => ({ stdout, stderr }),
        // oxlint-disable-next-line typescript/no-unnecessary-type-parameters -- as above
        async api<T>(method: string, path: string, body?: unknown) {
          const response = await fetch(`${origin}${path}`, {
            method,
            headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
          })
          // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- each test names the answer shape of the route it calls
          return { status: response.status, body: (await response.json()) as T }
        },
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM')
          return exited
        },
      })
    })
  })
}

/** A raw request with exactly these headers (fetch would not let a test send a foreign Host); `chunks` are written one by one (chunked unless a content-length is given). */
export function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, chunks: readonly Buffer[]): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      answered = true
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    // The server may answer (413) and close before the body is sent; the answer is what the test reads.
    req.on('error', (error: NodeJS.ErrnoException) => (answered && (error.code === 'EPIPE' || error.code === 'ECONNRESET') ? undefined : reject(error)))
    for (const chunk of chunks) req.write(chunk)
    req.end()
  })
}

/** A raw GET with exactly these headers. */
export const rawGet = (port: number, path: string, headers: Record<string, string>): ReturnType<typeof rawRequest> => rawRequest(port, 'GET', path, headers, [])

/** The `Cookie` header a browser holds after opening the printed URL (token → ticket on the private host → cookie). */
export async function browserCookie(web: WebProcess): Promise<string> {
  const first = await rawGet(web.port, `/?token=${web.token}`, { host: `127.0.0.1:${web.port}` })
  const moved = new URL(String(first.headers['location']))
  const second = await rawGet(web.port, `${moved.pathname}${moved.search}`, { host: moved.host })
  const line = [second.headers['set-cookie'] ?? []].flat().find((value) => value.startsWith(`dsh_web_${web.port}=`) && !value.includes('Max-Age=0'))
  if (line === undefined) throw new Error(`no cookie after the ticket (${second.status})`)
  return line.split(';')[0] ?? ''
}

/** A session's SSE stream being read: the events so far, waiting for a condition, closing. */
export interface EventWatch<T = StreamEvent> {
  readonly events: T[]
  /** Resolves once `predicate` holds for the events (rejects after `timeoutMs` with what arrived). */
  until(predicate: (events: readonly T[]) => boolean, timeoutMs?: number): Promise<T[]>
  close(): void
}

/** A message of the browser-wide stream `/api/stream` as the tests read it. */
export interface BrowserStreamMessage {
  readonly kind: 'hello' | 'session' | 'sessions'
  readonly session?: string
  readonly seq?: number
  readonly event?: StreamEvent
}

/** Subscribes to a session's events; resolves once subscribed (the first event, the busy state, arrived). */
export const watchEvents = (web: WebProcess, sessionId: string): Promise<EventWatch> => watchPath<StreamEvent>(web, `/api/sessions/${sessionId}/events`)

/** Subscribes to the browser-wide stream; resolves once its `hello` arrived. */
export const watchStream = (web: WebProcess): Promise<EventWatch<BrowserStreamMessage>> => watchPath<BrowserStreamMessage>(web, '/api/stream')

// oxlint-disable-next-line typescript/no-unnecessary-type-parameters -- the caller names the message shape of the stream it reads
async function watchPath<T>(web: WebProcess, path: string): Promise<EventWatch<T>> {
  const controller = new AbortController()
  const events: T[] = []
  const waiters = new Set<() => void>()
  const response = await fetch(`${web.origin}${path}`, { headers: { authorization: `Bearer ${web.token}` }, signal: controller.signal })
  const reader = response.body?.getReader()
  if (reader === undefined || response.status !== 200) throw new Error(`no event stream (${response.status})`)
  let buffer = ''
  const pump = async (): Promise<void> => {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffer += Buffer.from(value).toString()
      for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
        const data = buffer
          .slice(0, cut)
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n')
        buffer = buffer.slice(cut + 2)
        // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the server writes WebEvent JSON (packages/web/src/web-types.ts)
        if (data !== '') events.push(JSON.parse(data) as T)
      }
      for (const wake of waiters) wake()
    }
  }
  // The stream ends with an abort when the test closes it; that is no failure.
  pump().catch(() => undefined)
  const watch: EventWatch<T> = {
    events,
    until(predicate, timeoutMs = HANG_GUARD_MS) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!predicate(events)) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(events)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`events did not arrive within ${timeoutMs} ms; got ${JSON.stringify(events)}`))
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    },
    close: () => controller.abort(),
  }
  await watch.until((list) => list.length > 0)
  return watch
}

/** The answer text streamed in `events`. */
export const streamedText = (events: readonly StreamEvent[]): string =>
  events
    .filter((event) => event.event?.type === 'text')
    .map((event) => event.event?.text ?? '')
    .join('')

/** True once the events hold a `busy: false` after a `busy: true` (a turn ran and ended). */
export const turnFinished = (events: readonly StreamEvent[]): boolean => {
  const started = events.findIndex((event) => event.kind === 'busy' && event.busy === true)
  return started >= 0 && events.slice(started).some((event) => event.kind === 'busy' && event.busy === false)
}
