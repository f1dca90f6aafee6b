/**
 * Runs one snippet in a child Node process and supervises it: the IPC handshake, nested calls
 * bridged to the caller, captured stdout/stderr, the time limit, cancellation, and cleanup.
 *
 * The child is spawned `detached`, so it leads its own process group, and with a tool-call marker
 * (`DSH_TOOL_CALL`) that every process it starts inherits; every way out (timeout, cancellation,
 * normal exit) SIGKILLs that group and every marked process, which also removes processes the
 * snippet started and left behind, detached ones (`spawn(…, { detached: true })`) included. Each run has a stop signal that every nested call receives; it aborts on the
 * same three ways out, so a nested call (a long `bash`) ends with the snippet instead of outliving
 * it. The promise settles only after the child has exited and its pipes closed, and after nested
 * calls still in flight have settled (bounded by a grace period for tools that ignore the signal).
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import type { LaunchPlan, ProcessLauncher } from '@dsh/contracts'
import { killProcessesNow, TOOL_CALL_VARIABLE, type ProcessSelection } from '@dsh/tools'
import { BOOTSTRAP } from './bootstrap-source.ts'
import { isChildMessage, type ChildMessage, type DoneMessage, type ReplyMessage } from './ipc-protocol.ts'
import { createOutputCapture } from './output-capture.ts'

/** What a nested call resolved to, as the snippet will see it. */
export interface NestedReply {
  readonly isError: boolean
  readonly content: string
  readonly status: string
}

/** One nested call, in the order the snippet made them. */
export interface NestedCallRecord {
  /** Tool name as the snippet wrote it. */
  readonly name: string
  /**
   * `ok`/`error` once settled; `stopped` when it was cancelled because the snippet ended (timeout,
   * cancellation or exit); `running` when it had not settled even a grace period after that.
   */
  state: 'running' | 'ok' | 'error' | 'stopped'
}

/** How to run a snippet. */
export interface SnippetRunOptions {
  readonly code: string
  readonly cwd: string
  readonly nodePath: string
  readonly timeoutMs: number
  readonly maxOutputChars: number
  readonly signal: AbortSignal
  /**
   * Runs one nested call (the pipeline); must not throw. `stop` aborts when the snippet ends (time
   * limit, cancellation, process exit): the call must be cancelled with it.
   */
  readonly onCall: (name: string, args: unknown, stop: AbortSignal) => Promise<NestedReply>
  /** How long to wait for nested calls still running after the snippet ended. */
  readonly abandonGraceMs?: number
  /**
   * The `DSH_TOOL_CALL` marker of this run (a tracker's, so the host can end what the snippet
   * started even when dsh exits before the run ends); a fresh private one by default.
   */
  readonly marker?: string
  /** Wraps the launch of the snippet process (the sandbox); without one, Node is spawned directly. */
  readonly launcher?: ProcessLauncher
  /** The session the snippet belongs to, for the launcher (its private temp directory). */
  readonly session?: string | undefined
  /** The session's writable roots, for the launcher. */
  readonly writableRoots?: readonly string[]
}

/** How the run ended. */
export type SnippetEnd =
  | { readonly kind: 'finished'; readonly done: DoneMessage }
  | { readonly kind: 'exited'; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'spawn-failed'; readonly message: string }

/** Everything the tool needs to build its result. */
export interface SnippetRun {
  readonly end: SnippetEnd
  /** Captured stdout + stderr in arrival order, head/tail capped. */
  readonly output: string
  readonly calls: readonly NestedCallRecord[]
  /** Child process id (absent when spawning failed). */
  readonly pid?: number
  readonly durationMs: number
  /** How the snippet process was launched (absent without a launcher). */
  readonly plan?: LaunchPlan
}

const closeGraceMs = 2_000

/** The snippet's processes: its group and everything carrying its marker. */
function snippetProcesses(pid: number | undefined, marker: string): ProcessSelection {
  return { groups: pid === undefined ? [] : [pid], marker: (found) => found === marker }
}

function refusal(name: string): NestedReply {
  return {
    isError: true,
    status: 'refused',
    content: `${name} cannot be called from inside a run_code snippet. Do that work in this snippet directly, or make a separate ${name} call after this one returns.`,
  }
}

const identity = (reply: NestedReply): NestedReply => reply

/** `onCall` must not reject; if it does anyway, the snippet sees an error instead of hanging. */
function crashed(error: unknown): NestedReply {
  return { isError: true, status: 'failed', content: `The nested call failed unexpectedly: ${error instanceof Error ? error.message : String(error)}.` }
}

/** Runs the snippet to its end. Never rejects. */
export function runSnippet(options: SnippetRunOptions): Promise<SnippetRun> {
  const started = Date.now()
  const capture = createOutputCapture(options.maxOutputChars)
  const calls: NestedCallRecord[] = []
  const inFlight = new Set<Promise<void>>()
  let done: DoneMessage | undefined
  let stopped: 'timeout' | 'cancelled' | undefined
  // Aborted on every way out of the run; nested calls get its signal.
  const stop = new AbortController()

  const marker = options.marker ?? `${process.pid}.code.${randomBytes(6).toString('hex')}`
  const env: NodeJS.ProcessEnv = { ...process.env, [TOOL_CALL_VARIABLE]: marker }
  delete env.NODE_OPTIONS // injected loaders or inspectors of the host must not run inside snippets
  const killAll = (): void => killProcessesNow(snippetProcesses(child.pid, marker))
  const args = ['--input-type=module', '-e', BOOTSTRAP]
  const plan = options.launcher?.plan({ file: options.nodePath, args, cwd: options.cwd, env, writableRoots: options.writableRoots ?? [options.cwd], ...(options.session === undefined ? {} : { session: options.session }) })
  const child = spawn(plan?.file ?? options.nodePath, plan?.args ?? args, {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true,
    cwd: options.cwd,
    env: plan?.env ?? env,
  })
  const { stdout, stderr } = child
  // Both are 'pipe' above, so Node always creates them; the check only narrows the type.
  if (stdout === null || stderr === null) throw new Error('run_code: the snippet process has no stdout/stderr pipes')

  const reply = (message: ReplyMessage): void => {
    if (!child.connected) return
    child.send(message, (error) => {
      // The child exited between the connected check and the write; it no longer needs the reply.
      if (error !== null) return
    })
  }

  const onMessage = (raw: unknown): void => {
    if (!isChildMessage(raw)) return
    const message: ChildMessage = raw
    if (message.type === 'ready') {
      if (child.connected) child.send({ type: 'start', code: options.code, maxReturnChars: options.maxOutputChars })
      return
    }
    if (message.type === 'done') {
      done = message
      return
    }
    const record: NestedCallRecord = { name: message.name, state: 'running' }
    calls.push(record)
    const result = message.name === 'run_code' ? Promise.resolve(refusal('run_code')) : options.onCall(message.name, message.args, stop.signal)
    const settled = result.then(identity, crashed).then((outcome) => {
      record.state = outcome.status === 'cancelled' && stop.signal.aborted ? 'stopped' : outcome.isError ? 'error' : 'ok'
      reply({ type: 'reply', id: message.id, ...outcome })
    })
    inFlight.add(settled)
    void settled.finally(() => inFlight.delete(settled))
  }

  const onAbort = (): void => {
    stopped ??= 'cancelled'
    stop.abort()
    killAll()
  }

  return new Promise<SnippetRun>((resolve) => {
    let timer: NodeJS.Timeout | undefined
    let settledOnce = false
    const finish = async (end: SnippetEnd): Promise<void> => {
      if (settledOnce) return
      settledOnce = true
      clearTimeout(timer)
      options.signal.removeEventListener('abort', onAbort)
      stop.abort()
      // Every nested call was told to stop; one whose tool ignores its signal is abandoned.
      await Promise.race([Promise.all(inFlight), new Promise((wake) => setTimeout(wake, options.abandonGraceMs ?? 2_000).unref())])
      resolve({ end, output: capture.text(), calls, durationMs: Date.now() - started, ...(child.pid === undefined ? {} : { pid: child.pid }), ...(plan === undefined ? {} : { plan }) })
    }

    child.on('error', (error) => {
      // Only a failed spawn has no pid; other 'error' events (a failed kill or send) change nothing.
      if (child.pid === undefined) void finish({ kind: 'spawn-failed', message: error.message })
    })
    stdout.setEncoding('utf8')
    stderr.setEncoding('utf8')
    stdout.on('data', (chunk: string) => capture.append(chunk))
    stderr.on('data', (chunk: string) => capture.append(chunk))
    child.on('message', onMessage)
    child.on('exit', () => {
      clearTimeout(timer)
      stop.abort()
      killAll()
      // Processes outside the group may still hold the pipes; do not wait for them forever.
      setTimeout(() => {
        stdout.destroy()
        stderr.destroy()
        // A process outside the group may hold the IPC channel too; it must not keep the run open.
        if (child.connected) child.disconnect()
      }, closeGraceMs).unref()
    })
    child.on('close', (code, signal) => {
      // A snippet that finished wins over a stop that raced with its exit.
      if (done !== undefined) void finish({ kind: 'finished', done })
      else if (stopped !== undefined) void finish({ kind: stopped })
      else void finish({ kind: 'exited', code, signal })
    })

    if (options.signal.aborted) onAbort()
    else options.signal.addEventListener('abort', onAbort, { once: true })
    timer = setTimeout(() => {
      stopped ??= 'timeout'
      stop.abort()
      killAll()
    }, options.timeoutMs)
  })
}
