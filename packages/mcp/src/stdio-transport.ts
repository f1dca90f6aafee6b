/**
 * The stdio transport of a server: the program runs as the leader of its own process group
 * (`detached`) with the minimal environment, in the session's working directory. Newline-
 * delimited JSON-RPC on stdin/stdout; stderr is kept in a bounded tail. `close` ends stdin and
 * ends the whole group (npx-style wrappers and their children): SIGTERM, a grace period, SIGKILL.
 * Every process carries the host's process marker, so the host's exit hook also finds processes
 * that left the group.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client'
import { StderrTail } from './stderr-tail.ts'

/** Options of {@link GroupStdioTransport}. */
export interface GroupStdioOptions {
  readonly command: string
  readonly args: readonly string[]
  readonly cwd: string
  /** The complete environment (child-env.ts). */
  readonly env: Readonly<Record<string, string>>
  /** Receives the server's stderr. */
  readonly stderr: StderrTail
  /** Time between SIGTERM and SIGKILL on close (default 2000 ms). */
  readonly graceMs?: number
}

function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal)
    return true
  } catch {
    // ESRCH: the group is already gone.
    return false
  }
}

/** A transport over a child process in its own process group. */
export class GroupStdioTransport implements Transport {
  readonly #options: GroupStdioOptions
  readonly #buffer = new ReadBuffer()
  #child: ChildProcess | undefined
  #closed = false
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  constructor(options: GroupStdioOptions) {
    this.#options = options
  }

  /** The leader's pid while it runs. */
  get pid(): number | undefined {
    return this.#child?.pid
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.#options.command, [...this.#options.args], { cwd: this.#options.cwd, env: this.#options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
      this.#child = child
      let spawned = false
      child.once('spawn', () => {
        spawned = true
        resolve()
      })
      child.once('error', (error) => {
        if (!spawned) reject(error)
        else this.onerror?.(error)
        this.#finish()
      })
      child.once('exit', () => {
        // The group may still hold children the leader left behind: end them too.
        if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL')
      })
      // After the pipes closed, so the last stderr lines are in the tail when the close is reported.
      child.once('close', () => this.#finish())
      child.stdout?.on('data', (chunk: Buffer) => {
        this.#buffer.append(chunk)
        for (;;) {
          let message: JSONRPCMessage | null
          try {
            message = this.#buffer.readMessage()
          } catch (error) {
            // A line that is not JSON-RPC is reported and skipped; the stream goes on.
            this.onerror?.(error instanceof Error ? error : new Error(String(error)))
            continue
          }
          if (message === null) break
          this.onmessage?.(message)
        }
      })
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (chunk: string) => this.#options.stderr.push(chunk))
      // A write to a server that just died fails with EPIPE; the exit handler reports the close.
      child.stdin?.on('error', () => undefined)
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin
    if (stdin === undefined || stdin === null || this.#closed) return Promise.reject(new Error('not connected'))
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve()
      else stdin.once('drain', resolve)
    })
  }

  async close(): Promise<void> {
    const child = this.#child
    if (child === undefined || child.pid === undefined) {
      this.#finish()
      return
    }
    const pid = child.pid
    child.stdin?.end()
    if (child.exitCode === null && child.signalCode === null) {
      signalGroup(pid, 'SIGTERM')
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      let timer: NodeJS.Timeout | undefined
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.#options.graceMs ?? 2_000)
      })
      await Promise.race([exited, grace])
      clearTimeout(timer)
    }
    signalGroup(pid, 'SIGKILL')
    this.#finish()
  }

  /** SIGKILLs the group now (a process that is exiting). */
  killNow(): void {
    const pid = this.#child?.pid
    if (pid !== undefined) signalGroup(pid, 'SIGKILL')
  }

  #finish(): void {
    if (this.#closed) return
    this.#closed = true
    this.#buffer.clear()
    this.onclose?.()
  }
}
