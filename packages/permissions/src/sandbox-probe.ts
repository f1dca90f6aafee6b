/**
 * Whether bubblewrap can sandbox commands here: `bwrap` on PATH and able to create its namespaces
 * (a trial run of `true` in the same kind of sandbox). Probed once per launcher, on first need.
 */
import { spawnSync } from 'node:child_process'
import { bwrapArguments } from './bwrap-args.ts'

/** The probe's finding. */
export type SandboxStatus = { readonly kind: 'available' } | { readonly kind: 'missing' } | { readonly kind: 'broken'; readonly detail: string }

/** Runs the probe (synchronously; a few milliseconds). `env` supplies PATH. */
export function probeBubblewrap(env: Readonly<Record<string, string | undefined>>, network: boolean): SandboxStatus {
  const result = spawnSync('bwrap', bwrapArguments({ writable: [], privateTemp: [], network }, '/', 'true', []), { env, stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 })
  if (result.error !== undefined) {
    const code = (result.error as NodeJS.ErrnoException).code
    return code === 'ENOENT' ? { kind: 'missing' } : { kind: 'broken', detail: result.error.message }
  }
  if (result.status === 0) return { kind: 'available' }
  const detail = result.stderr.toString('utf8').trim().split('\n')[0] ?? ''
  return { kind: 'broken', detail: detail === '' ? `exit status ${String(result.status ?? result.signal)}` : detail }
}

/** The one line dsh prints when the sandbox is unavailable. */
export function unavailableLine(status: SandboxStatus, interactive: boolean): string | undefined {
  if (status.kind === 'available') return undefined
  const why = status.kind === 'missing' ? 'bubblewrap (bwrap) is not installed' : `bubblewrap cannot start (${status.detail})`
  const then = interactive ? 'every shell command will ask before it runs unsandboxed' : 'shell commands are refused unless --permission-mode danger-full-access'
  return `warning: no sandbox for shell commands: ${why}; ${then}`
}
