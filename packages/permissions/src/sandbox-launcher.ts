/**
 * The `ProcessLauncher` the composition hands to `bash` and `run_code`: it runs each launch under
 * bubblewrap as the permission mode says (roots writable, read-only, or no sandbox in
 * `danger-full-access`), always with the filtered environment. The sandbox is probed on first need;
 * when it is unavailable the launch runs unsandboxed, which the permission guard has already made
 * ask (interactive front ends) or refused (`dsh run`), and dsh said so once on stderr.
 */
import type { LaunchPlan, LaunchRequest, PermissionMode, ProcessLauncher } from '@dsh/contracts'
import { bwrapArguments } from './bwrap-args.ts'
import { filterEnvironment } from './env-filter.ts'
import { sandboxOf } from './mode-policy.ts'
import { probeBubblewrap, unavailableLine, type SandboxStatus } from './sandbox-probe.ts'
import { sandboxRefusalNote } from './sandbox-refusal.ts'

/** Options of {@link createSandboxLauncher}. */
export interface SandboxLauncherOptions {
  readonly mode: PermissionMode
  /** `sandbox.network` (default true). */
  readonly network: boolean
  /** Environment variables to drop besides the standard ones (the configured `model.apiKeyEnv`). */
  readonly secretVariables: readonly string[]
  /** The environment the probe runs with (PATH finds `bwrap`). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** More directories bound writable (`sandbox.writable`), except in read-only sandboxes. */
  readonly extraWritable?: readonly string[]
  /** dsh's own state (`$DSH_HOME`): read-only to the shell even when it lies inside a writable root. */
  readonly protectedDirs?: readonly string[]
  /** The OS temp directory (private in read-only sandboxes). */
  readonly tempDir: string
  /** Receives the one line said when the sandbox is unavailable. */
  readonly warn: (line: string) => void
  /** True when the front end can ask (chooses the wording of that line). */
  readonly interactive: boolean
}

/** The launcher plus the probe result the permission guard needs. */
export interface SandboxLauncher extends ProcessLauncher {
  /** True when bubblewrap works here (probed once, on first call). */
  available(): boolean
  /** The probe's finding (probed once). */
  status(): SandboxStatus
}

/** Creates the launcher. */
export function createSandboxLauncher(options: SandboxLauncherOptions): SandboxLauncher {
  let status: SandboxStatus | undefined
  const probe = (): SandboxStatus => {
    if (status === undefined) {
      status = probeBubblewrap(options.env, options.network)
      const line = options.mode === 'danger-full-access' ? undefined : unavailableLine(status, options.interactive)
      if (line !== undefined) options.warn(line)
    }
    return status
  }
  const kind = sandboxOf(options.mode)
  return {
    status: probe,
    available: () => probe().kind === 'available',
    plan(request: LaunchRequest): LaunchPlan {
      const env = filterEnvironment(request.env, options.secretVariables)
      if (kind === 'none' || probe().kind !== 'available') return { file: request.file, args: [...request.args], env, sandboxed: false, writable: [] }
      const writable = kind === 'read-only' ? [] : [...new Set([...request.writableRoots, ...(options.extraWritable ?? [])])]
      const privateTemp = kind === 'read-only' ? [options.tempDir] : []
      const shape = { writable, privateTemp, reexposed: kind === 'read-only' ? [request.cwd] : [], protectedDirs: options.protectedDirs ?? [], network: options.network }
      return { file: 'bwrap', args: bwrapArguments(shape, request.cwd, request.file, request.args), env, sandboxed: true, writable }
    },
    explain: (output, plan) => (plan.sandboxed ? sandboxRefusalNote(output, plan.writable) : undefined),
  }
}
