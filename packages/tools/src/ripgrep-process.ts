/**
 * Runs one rg process for the search tools: stdin closed, no user config (`--no-config` is the
 * caller's), stdout handed over line by line (bytes split on `\n`), stderr kept (bounded), killed
 * at the deadline or on abort. A spawn failure (missing or non-executable binary) is reported as
 * `cannotRun`, so the caller can fall back to the built-in walker.
 */
import { spawn } from 'node:child_process'

/** How one rg run ended. */
export type RipgrepExit =
  | { readonly kind: 'exited'; readonly code: number; readonly stderr: string }
  | { readonly kind: 'timed-out' }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'cannot-run'; readonly reason: string }

/** Options of {@link runRipgrep}. */
export interface RipgrepRun {
  /** The rg binary. */
  readonly binary: string
  /** Arguments after the binary. */
  readonly args: readonly string[]
  /** Working directory of the process (paths in its output are relative to it). */
  readonly cwd: string
  /** Absolute time (`Date.now()` scale) at which the process is killed. */
  readonly deadline: number
  /** Cancellation. */
  readonly signal: AbortSignal
  /** Receives each stdout record (without its separator); returning false stops rg early (counts as exit 0). */
  readonly onLine?: (line: Buffer) => boolean
  /**
   * Instead of `onLine`: each record decoded as UTF-8. The records of a chunk are decoded with one
   * conversion, which costs far less than one per record for a long file listing.
   */
  readonly onText?: (record: string) => boolean
  /** The byte that ends a record: `\n` (default) or NUL (`--files --null`). */
  readonly separator?: number
}

const MAX_STDERR_CHARS = 4000

/** Runs rg and resolves when it ended (never rejects). */
export function runRipgrep(run: RipgrepRun): Promise<RipgrepExit> {
  return new Promise((resolve) => {
    let settled = false
    let stoppedEarly = false
    let ending: RipgrepExit | undefined
    const finish = (exit: RipgrepExit): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      run.signal.removeEventListener('abort', onAbort)
      resolve(exit)
    }
    const child = spawn(run.binary, run.args, { cwd: run.cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RIPGREP_CONFIG_PATH: '' } })
    const kill = (why: RipgrepExit | undefined): void => {
      ending ??= why
      child.kill('SIGKILL')
    }
    const onAbort = (): void => kill({ kind: 'aborted' })
    run.signal.addEventListener('abort', onAbort, { once: true })
    const timer = setTimeout(() => kill({ kind: 'timed-out' }), Math.max(0, run.deadline - Date.now()))
    let pending: Buffer[] = []
    const separator = run.separator ?? 10
    const stop = (): void => {
      stoppedEarly = true
      kill(undefined)
    }
    const deliver = (line: Buffer): boolean => (run.onText === undefined ? run.onLine?.(line) !== false : run.onText(line.toString('utf8')))
    const { onText } = run
    const texts = (chunk: Buffer): void => {
      const last = chunk.lastIndexOf(separator)
      if (last === -1) {
        pending.push(chunk)
        return
      }
      const whole = pending.length === 0 ? chunk.subarray(0, last) : Buffer.concat([...pending, chunk.subarray(0, last)])
      pending = last + 1 < chunk.length ? [chunk.subarray(last + 1)] : []
      for (const record of whole.toString('utf8').split(String.fromCharCode(separator))) {
        if (onText?.(record) === false) return stop()
      }
    }
    child.stdout.on('data', (chunk: Buffer) => {
      if (stoppedEarly) return
      if (onText !== undefined) return texts(chunk)
      let start = 0
      for (let newline = chunk.indexOf(separator); newline !== -1; newline = chunk.indexOf(separator, start)) {
        const piece = chunk.subarray(start, newline)
        const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece])
        pending = []
        start = newline + 1
        if (!deliver(line)) return stop()
      }
      if (start < chunk.length) pending.push(chunk.subarray(start))
    })
    let stderr = ''
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (text: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += text
    })
    child.on('error', (error: NodeJS.ErrnoException) => {
      // ENOENT / EACCES / ENOEXEC at spawn: the binary cannot run here; the caller falls back.
      if (child.pid === undefined) finish({ kind: 'cannot-run', reason: error.code ?? error.message })
    })
    child.on('close', (code, signal) => {
      if (child.pid === undefined) return
      if (!stoppedEarly && pending.length > 0) deliver(Buffer.concat(pending))
      if (ending !== undefined) finish(ending)
      else if (stoppedEarly) finish({ kind: 'exited', code: 0, stderr })
      else finish({ kind: 'exited', code: code ?? (signal === null ? 2 : 128), stderr })
    })
  })
}
