/**
 * Runs one hook command: `bash -c COMMAND` (hook-shell.ts) in the session's working directory, in a process group of
 * its own, with the event's JSON on stdin and an environment without the model provider's keys.
 * Output beyond the cap is dropped. At the time limit (or when the caller's signal aborts) the
 * whole group is killed. Exit 126 or 127 (the shell could not run the command) counts as
 * "failed to start", like a spawn error: a guard that cannot run must not pass for one that said yes.
 */
import { spawn } from 'node:child_process'
import type { HookShell } from './hook-shell.ts'
import type { HookEntry, HookRun } from './hook-types.ts'

/** Bytes kept of each of stdout and stderr. */
export const HOOK_OUTPUT_CAP = 64 * 1024

/** Inputs of one run. */
export interface RunHookOptions {
  readonly entry: HookEntry
  /** The event's JSON (written to stdin). */
  readonly input: unknown
  /** Working directory (the session's). */
  readonly cwd: string
  /** Environment of the command. */
  readonly env: Readonly<Record<string, string>>
  /** The shell that runs `entry.command` with `-c`. */
  readonly shell: HookShell
  /** Cancels the run (the step was cancelled). */
  readonly signal?: AbortSignal | undefined
}

function collector(): { push: (chunk: Buffer) => void; text: () => string } {
  const parts: Buffer[] = []
  let size = 0
  return {
    push: (chunk) => {
      if (size >= HOOK_OUTPUT_CAP) return
      const kept = chunk.subarray(0, HOOK_OUTPUT_CAP - size)
      parts.push(kept)
      size += kept.length
    },
    text: () => Buffer.concat(parts).toString('utf8'),
  }
}

/** Runs the hook; never rejects. */
export function runHook(options: RunHookOptions): Promise<HookRun> {
  const { entry } = options
  return new Promise((resolve) => {
    const stdout = collector()
    const stderr = collector()
    let timedOut = false
    let settled = false
    const child = spawn(options.shell.file, [...options.shell.flags, '-c', entry.command], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // The group is gone already (the command exited): nothing to kill.
      }
    }
    const timer = setTimeout(() => {
      timedOut = true
      killGroup()
    }, entry.timeoutMs)
    const onAbort = (): void => killGroup()
    options.signal?.addEventListener('abort', onAbort, { once: true })
    const finish = (run: Omit<HookRun, 'entry' | 'stdout' | 'stderr'>): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      resolve({ entry, stdout: stdout.text(), stderr: stderr.text(), ...run })
    }
    child.stdout.on('data', stdout.push)
    child.stderr.on('data', stderr.push)
    child.on('error', (error) => {
      stderr.push(Buffer.from(error.message))
      finish({ outcome: 'failed-to-start', exitCode: null })
    })
    child.on('close', (code) => {
      if (timedOut) return finish({ outcome: 'timeout', exitCode: null })
      if (code === 0) return finish({ outcome: 'ok', exitCode: 0 })
      if (code === 2) return finish({ outcome: 'block', exitCode: 2 })
      if (code === 126 || code === 127) return finish({ outcome: 'failed-to-start', exitCode: code })
      return finish({ outcome: 'warning', exitCode: code })
    })
    // A hook that does not read its stdin closes the pipe early; that is not a failure.
    child.stdin.on('error', () => undefined)
    child.stdin.end(`${JSON.stringify(options.input)}\n`)
  })
}
