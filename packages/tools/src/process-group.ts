/**
 * Runs `bash -c` as the leader of a new process group (`detached`) with stdin closed, combining
 * stdout and stderr in order into a bounded buffer. Every process the command starts inherits a
 * tool-call marker (`DSH_TOOL_CALL`, see process-table.ts). On timeout or abort the group and every
 * marked process get SIGTERM, then SIGKILL after a grace period, and the result waits for that.
 * When the shell exits by itself, `afterExit` decides what happens to what it left running.
 */
import { spawn } from 'node:child_process'
import type { LaunchPlan, ProcessLauncher } from '@dsh/contracts'
import { StringDecoder } from 'node:string_decoder'
import { CappedOutput } from './capped-output.ts'
import { endProcesses, type ProcessSelection } from './process-ending.ts'
import { TOOL_CALL_VARIABLE } from './process-table.ts'

/** Options of {@link runInProcessGroup}. */
export interface ProcessGroupOptions {
  /** Working directory. */
  readonly cwd: string
  /** Kill the group after this many milliseconds. */
  readonly timeoutMs: number
  /** Kill the group when aborted. */
  readonly signal: AbortSignal
  /** Output budget in characters (head and tail kept). */
  readonly maxOutputChars: number
  /** Time between SIGTERM and SIGKILL. */
  readonly killGraceMs: number
  /** Value of `DSH_TOOL_CALL` for every process of this run (unique per call). */
  readonly marker: string
  /**
   * Runs after the shell exited by itself, before the result is returned, with the selection of
   * what it may have left running (its group and its marker). Must not reject.
   */
  readonly afterExit: (leftovers: { readonly pgid: number; readonly selection: ProcessSelection }) => Promise<void>
  /** Wraps the launch (the sandbox); without one, bash is spawned directly with dsh's environment. */
  readonly launcher?: ProcessLauncher | undefined
  /** The session's writable roots, for the launcher. */
  readonly writableRoots?: readonly string[]
  /** True when background processes may outlive the run (a tracker keeps them), for the launcher. */
  readonly outlivesCall?: boolean
  /** Receives the output as it arrives (decoded; the whole of it, not only what the cap keeps). Must not throw. */
  readonly onOutput?: (text: string) => void
  /** The session the run belongs to, for the launcher (its private temp directory). */
  readonly session?: string | undefined
}

/** How a command run ended. */
export interface ProcessGroupResult {
  /** `exit`: ended by itself; `timeout` / `aborted`: killed by us; `spawn-error`: never started. */
  readonly ended: 'exit' | 'timeout' | 'aborted' | 'spawn-error'
  /** Combined output, capped, with a marker where the middle was dropped. */
  readonly output: string
  /** Characters dropped from the middle of the output. */
  readonly droppedChars: number
  /** Exit code, when the shell exited normally. */
  readonly exitCode: number | null
  /** Signal that ended the shell, if any. */
  readonly exitSignal: NodeJS.Signals | null
  /** The spawn error message for `spawn-error`. */
  readonly error?: string
  /** How it was launched (what the launcher planned). */
  readonly plan: LaunchPlan
}

/** After the shell exits, how long to wait for background holders of the pipes before returning. */
const DRAIN_MS = 200

/** The processes of one run: its group (ours while the run lasts) and everything carrying its marker. */
export function runSelection(pgid: number, marker: string): ProcessSelection {
  return { groups: [pgid], marker: (found) => found === marker }
}

/** Runs `command` with `bash -c` and resolves when it ended (never rejects). */
export function runInProcessGroup(command: string, options: ProcessGroupOptions): Promise<ProcessGroupResult> {
  const output = new CappedOutput(options.maxOutputChars)
  // `exec 2>&1` first: both streams share one pipe, so their order is preserved.
  const request = { file: 'bash', args: ['-c', `exec 2>&1\n${command}`], cwd: options.cwd, env: { ...process.env, [TOOL_CALL_VARIABLE]: options.marker }, writableRoots: options.writableRoots ?? [options.cwd], ...(options.outlivesCall === true ? { outlivesCall: true } : {}), ...(options.session === undefined ? {} : { session: options.session }) }
  const plan: LaunchPlan = options.launcher?.plan(request) ?? { ...request, sandboxed: false, writable: [] }
  if (options.signal.aborted) {
    return Promise.resolve({ ended: 'aborted', output: '', droppedChars: 0, exitCode: null, exitSignal: null, plan })
  }
  return new Promise((resolve) => {
    const child = spawn(plan.file, plan.args, {
      cwd: options.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: plan.env,
    })
    let ended: ProcessGroupResult['ended'] = 'exit'
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
    let settled = false
    let ending: Promise<void> | undefined
    let drainTimer: NodeJS.Timeout | undefined

    const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')] as const
    const received = (text: string): void => {
      output.append(text)
      if (text !== '') options.onOutput?.(text)
    }
    child.stdout.on('data', (chunk: Buffer) => received(decoders[0].write(chunk)))
    child.stderr.on('data', (chunk: Buffer) => received(decoders[1].write(chunk)))

    const stop = (reason: 'timeout' | 'aborted') => {
      if (settled || exit !== undefined || child.pid === undefined) return
      ended = reason
      ending = endProcesses(runSelection(child.pid, options.marker), { graceMs: options.killGraceMs })
    }
    const timeout = setTimeout(() => stop('timeout'), options.timeoutMs)
    const onAbort = () => stop('aborted')
    options.signal.addEventListener('abort', onAbort, { once: true })

    const finish = async (error?: Error) => {
      if (settled) return
      settled = true
      clearTimeout(timeout)
      clearTimeout(drainTimer)
      options.signal.removeEventListener('abort', onAbort)
      child.stdout.destroy()
      child.stderr.destroy()
      received(decoders[0].end() + decoders[1].end())
      const pid = child.pid
      if (ending !== undefined) await ending
      else if (error === undefined && pid !== undefined) await options.afterExit({ pgid: pid, selection: runSelection(pid, options.marker) })
      resolve({
        ended: error === undefined ? ended : 'spawn-error',
        output: output.text(),
        droppedChars: output.dropped,
        exitCode: exit?.code ?? null,
        exitSignal: exit?.signal ?? null,
        plan,
        ...(error === undefined ? {} : { error: error.message }),
      })
    }

    child.on('error', (error) => void finish(error))
    child.on('exit', (code, signal) => {
      exit = { code, signal }
      // A background process may keep the pipes open; give it a moment, then return anyway.
      drainTimer = setTimeout(() => void finish(), DRAIN_MS)
    })
    child.on('close', () => void finish())
  })
}
