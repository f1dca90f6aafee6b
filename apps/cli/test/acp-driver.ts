// Drives the built `dsh acp` as an editor does: spawns it with piped stdio and connects the ACP
// SDK's client app over newline-delimited JSON. Every byte of stdout is kept (it must all be
// JSON-RPC), and the client's answers to permission questions are scripted.
import { spawn, type ChildProcess } from 'node:child_process'
import { Writable } from 'node:stream'
import { client, ndJsonStream, type ClientContext, type RequestPermissionResponse, type SessionNotification } from '@agentclientprotocol/sdk'
import { dshBinary, testEnv } from './run-dsh.ts'

/** A running `dsh acp` with a connected client. */
export interface AcpProcess {
  readonly child: ChildProcess
  readonly agent: ClientContext
  readonly updates: SessionNotification[]
  /** Titles of the permission questions asked so far. */
  readonly questions: string[]
  /** The option names of each permission question, in the order asked. */
  readonly offered: string[][]
  /** Everything written to stdout so far. */
  stdout(): string
  /** Everything written to stderr so far. */
  stderr(): string
  /** Resolves with the exit code (or signal name) once the process has exited. */
  readonly exited: Promise<number | string | null>
}

/**
 * Spawns `dsh acp ARGS` in `cwd`; `answer` picks the option id of each permission question
 * (default: reject); `env` is merged over the minimal test environment.
 */
export function spawnAcp(args: readonly string[], options: { readonly cwd: string; readonly home: string; readonly answer?: () => string | Promise<string>; readonly env?: Readonly<Record<string, string>> }): AcpProcess {
  const child = spawn(dshBinary, ['acp', ...args], { cwd: options.cwd, env: testEnv(options.home, { NO_COLOR: '1', ...options.env }), stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)))
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        controller.enqueue(chunk)
      })
      child.stdout.once('end', () => controller.close())
    },
  })
  const updates: SessionNotification[] = []
  const questions: string[] = []
  const offered: string[][] = []
  const connection = client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params)
    })
    .onRequest('session/request_permission', async ({ params }): Promise<RequestPermissionResponse> => {
      questions.push(params.toolCall.title ?? '')
      offered.push(params.options.map((option) => option.name))
      return { outcome: { outcome: 'selected', optionId: (await options.answer?.()) ?? 'reject' } }
    })
    .connect(ndJsonStream(Writable.toWeb(child.stdin), input))
  return { child, agent: connection.agent, updates, questions, offered, stdout: () => stdout, stderr: () => stderr, exited }
}

/** Ends an agent a test started (SIGKILL) and waits for it to be gone; nothing when it already exited. */
export async function killAcp(acp: AcpProcess | undefined): Promise<void> {
  if (acp === undefined || acp.child.exitCode !== null || acp.child.signalCode !== null) return
  acp.child.kill('SIGKILL')
  await acp.exited
}

/** Resolves once `check` holds, polling; rejects after `ms`. */
export async function waitFor(check: () => boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Every stdout line parsed; throws on one that is not a JSON-RPC 2.0 message. */
export function jsonRpcLines(stdout: string): unknown[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const message: unknown = JSON.parse(line)
      if (typeof message !== 'object' || message === null || !('jsonrpc' in message) || message.jsonrpc !== '2.0') throw new Error(`not JSON-RPC on stdout: ${line}`)
      return message
    })
}
