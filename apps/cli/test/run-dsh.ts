// Spawns the built dsh binary as a user would, with a temp home, and captures its output.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ModelScript } from '@dsh/llm-scripted'

/** Path of the built binary (npm links it after `npm ci`; `npm test` builds it first). */
export const dshBinary = fileURLToPath(new URL('../../../node_modules/.bin/dsh', import.meta.url))

/** Result of one invocation. */
export interface DshResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** How long one spawned command may run before it counts as hung: generous for a loaded machine. */
export const SPAWN_GUARD_MS = 60_000

/** Options of {@link spawnCollect}. */
export interface SpawnOptions {
  readonly cwd: string
  /** The whole environment of the child. */
  readonly env: Record<string, string>
  /** Written to stdin, which is then closed; without it (and without `stdin`) stdin is ignored. */
  readonly input?: string
  /**
   * Another stdin: an open file descriptor, or a pipe held open that `feed` may end later with a
   * text (a late write's EPIPE, once the child gave up on the pipe, is expected and ignored).
   */
  readonly stdin?: { readonly fd: number } | { readonly feed?: (end: (text: string) => void) => void }
  readonly timeoutMs?: number
  /** Runs the child as this user and group (only a root parent can). */
  readonly user?: { readonly uid: number; readonly gid: number }
}

/** Spawns a command, collects stdout and stderr, and rejects with both when it times out. */
export function spawnCollect(command: string, args: readonly string[], options: SpawnOptions): Promise<DshResult> {
  return new Promise((resolve, reject) => {
    const stdin = options.stdin !== undefined && 'fd' in options.stdin ? options.stdin.fd : options.input === undefined && options.stdin === undefined ? 'ignore' : 'pipe'
    const child = spawn(command, [...args], { cwd: options.cwd, env: options.env, stdio: [stdin, 'pipe', 'pipe'], ...options.user })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${command} ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, options.timeoutMs ?? SPAWN_GUARD_MS)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      child.stdin?.destroy()
      resolve({ code, stdout, stderr })
    })
    if (options.input !== undefined) child.stdin?.end(options.input)
    if (options.stdin !== undefined && 'feed' in options.stdin) {
      // The child may close the held pipe once it stopped waiting: a late write's EPIPE is expected.
      child.stdin?.on('error', () => undefined)
      options.stdin.feed?.((text) => child.stdin?.end(text))
    }
  })
}

/** A minimal environment for the binary: PATH, a HOME inside the test tree, and `extra`. */
export function testEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, ...extra }
}

/** Runs dsh with arguments; `env` is merged over a minimal environment; `input` is piped into stdin. */
export function runDsh(args: readonly string[], options: { cwd: string; env?: Record<string, string>; timeoutMs?: number; input?: string; user?: SpawnOptions['user'] }): Promise<DshResult> {
  if (!existsSync(dshBinary)) throw new Error(`${dshBinary} is missing: run npm run build`)
  return spawnCollect(dshBinary, args, {
    cwd: options.cwd,
    env: testEnv(options.cwd, { NO_COLOR: '1', ...options.env }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.user === undefined ? {} : { user: options.user }),
  })
}

/** Writes a scripted-model file and returns its path. */
export function writeScript(dir: string, name: string, script: ModelScript): string {
  const file = join(dir, name)
  writeFileSync(file, JSON.stringify(script))
  return file
}

/** One logged request body. */
export interface RequestBody {
  readonly model: string
  readonly messages: readonly { readonly role: string; readonly content: string | null; readonly tool_calls?: unknown[]; readonly tool_call_id?: string }[]
  readonly tools?: readonly unknown[]
}

/**
 * Reads a request log (one JSON body per line). `complete: true` leaves out an unterminated last
 * line: a process killed outright (SIGKILL) can be stopped in the middle of appending a large body,
 * and only whole lines are requests that were made.
 */
export function readRequests(file: string, options: { readonly complete?: boolean } = {}): RequestBody[] {
  const text = readFileSync(file, 'utf8')
  return (options.complete === true ? text.slice(0, text.lastIndexOf('\n') + 1) : text)
    .split('\n')
    .filter((line) => line !== '')
    .map((line): RequestBody => {
      // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the request log is written by dsh itself with this shape
      return JSON.parse(line) as RequestBody
    })
}

/** The `session: <id>` line of stderr. */
export function sessionIdOf(stderr: string): string {
  const match = /^session: (\S+)$/m.exec(stderr)
  if (match?.[1] === undefined) throw new Error(`no session line in stderr:\n${stderr}`)
  return match[1]
}
