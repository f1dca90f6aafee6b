/**
 * The `ProcessLauncher` the composition hands to `bash` and `run_code`: it runs each launch under
 * bubblewrap as the permission mode says (roots writable, read-only, or no sandbox in
 * `danger-full-access`), always with the filtered environment. The sandbox is probed on first need;
 * when it is unavailable the launch runs unsandboxed, which the permission guard has already made
 * ask (interactive front ends) or refused (`dsh run`), and dsh said so once on stderr. The
 * launcher owns the sessions' private temp directories (session-temp.ts: one per session, removed by
 * `endSession` and by `dispose`), the creation watch that
 * reverts protected files commands create (creation-watch.ts) and the reaper that ends its
 * sandboxes if dsh dies (sandbox-reaper.ts); `dispose` ends all three.
 */
import { join } from 'node:path'
import type { LaunchPlan, LaunchRequest, PermissionMode, ProcessLauncher } from '@dsh/contracts'
import { bwrapArguments, type SandboxShape } from './bwrap-args.ts'
import { filterEnvironment } from './env-filter.ts'
import { sandboxOf } from './mode-policy.ts'
import { CreationWatch } from './creation-watch.ts'
import { ExecutableFiles } from './executable-files.ts'
import { protectedInsideRoots } from './protected-inside-roots.ts'
import { sandboxMasks } from './sandbox-masks.ts'
import { SandboxReaper } from './sandbox-reaper.ts'
import { probeBubblewrap, unavailableLine, type SandboxStatus } from './sandbox-probe.ts'
import { sandboxRefusalNote, type RefusalContext } from './sandbox-refusal.ts'
import { removeStaleSessionTemps, SessionTemp } from './session-temp.ts'

/**
 * The variable that weakens the sandbox for the tests of `dsh sandbox check`, never set otherwise:
 * `share-pid` (commands share dsh's pid namespace), `no-file-protection` (nothing inside the roots
 * read-only or watched), `no-reaper` (nothing ends the sandboxes of a dsh that dies).
 */
export const WEAKEN_SANDBOX_VARIABLE = 'DSH_TEST_WEAKEN_SANDBOX'

/** The weakenings {@link WEAKEN_SANDBOX_VARIABLE} names, and what `dsh sandbox check` says of each. */
export const sandboxWeakenings = {
  'share-pid': "commands share dsh's pid namespace",
  'no-file-protection': 'nothing inside the roots is read-only or watched',
  'no-reaper': 'nothing ends the sandboxes of a dsh that dies',
} as const

/** One weakening. */
export type SandboxWeakening = keyof typeof sandboxWeakenings

const isWeakening = (value: string): value is SandboxWeakening => Object.hasOwn(sandboxWeakenings, value)
const weakeningOf = (value: string | undefined): SandboxWeakening | undefined => (value !== undefined && isWeakening(value) ? value : undefined)

/** Options of {@link createSandboxLauncher}. */
export interface SandboxLauncherOptions {
  readonly mode: PermissionMode
  /** `sandbox.network` (default true). */
  readonly network: boolean
  /** Environment variables to drop besides the standard ones (the configured `model.apiKeyEnv`). */
  readonly secretVariables: readonly string[]
  /** Variables to keep although they look secret (`sandbox.passEnv`). */
  readonly passEnv?: readonly string[]
  /** The environment the probe runs with (PATH finds `bwrap`); also where sockets are announced. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** More directories bound writable (`sandbox.writable`), except in read-only sandboxes. */
  readonly extraWritable?: readonly string[]
  /** dsh's own state (`$DSH_HOME`, the config file): read-only to the shell even inside a writable root. */
  readonly protectedDirs?: readonly string[]
  /** The user's home and dsh home (where the secret locations are), and the user id (runtime directories). */
  readonly home?: string
  readonly dshHome?: string
  readonly uid?: number
  /** The OS temp directory (private in read-only sandboxes, the process's private directory otherwise). */
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
  /** How the sandbox was weakened for a test ({@link WEAKEN_SANDBOX_VARIABLE}), if it was. */
  readonly weakened: SandboxWeakening | undefined
  /**
   * dsh itself is about to write `path` (the `write`/`edit` tools, an operator save): a protected
   * path it creates is not reverted as a command's plant (creation-watch.ts).
   */
  exempt(path: string): void
  /** The session ended: its private temp directory is removed. */
  endSession(session: string): void
  /** Reverts what commands planted last, stops the reaper and removes the private temp directory (when the host ends). */
  dispose(): void
}

/** Creates the launcher; removes private temp directories of dsh processes that crashed. */
export function createSandboxLauncher(options: SandboxLauncherOptions): SandboxLauncher {
  let status: SandboxStatus | undefined
  const weakened = weakeningOf(options.env[WEAKEN_SANDBOX_VARIABLE])
  const probe = (): SandboxStatus => {
    if (status === undefined) {
      status = probeBubblewrap(options.env, options.network)
      const line = options.mode === 'danger-full-access' ? undefined : unavailableLine(status, options.interactive)
      if (line !== undefined) options.warn(line)
    }
    return status
  }
  const kind = sandboxOf(options.mode)
  if (kind !== 'none') removeStaleSessionTemps(options.tempDir)
  // One private temp directory per session (launches without one share the '' entry).
  const temps = new Map<string, SessionTemp>()
  const tempOf = (session: string | undefined): SessionTemp => {
    const found = temps.get(session ?? '')
    if (found !== undefined) return found
    const made = new SessionTemp(options.tempDir)
    temps.set(session ?? '', made)
    return made
  }
  const watch = new CreationWatch({ ...(options.dshHome === undefined ? {} : { quarantine: join(options.dshHome, 'quarantine') }), warn: options.warn })
  const reaper = new SandboxReaper()
  const executables = new ExecutableFiles()
  // True when the last command ended with no sandbox of this launcher left running and none was launched since.
  let quiet = true
  const noSandboxRuns = (): boolean => !watch.guardsExecutables || !reaper.anyAlive()
  // What each plan kept read-only inside its roots, for the note on a refused change.
  const refusals = new WeakMap<LaunchPlan, RefusalContext>()
  const shapeOf = (request: LaunchRequest): { shape: SandboxShape; writable: string[]; inside: string[] } => {
    const roots = kind === 'read-only' ? [] : [...new Set([...request.writableRoots, ...(options.extraWritable ?? [])])]
    const writable = roots.filter((root) => root !== options.tempDir)
    const searched = request.writableRoots.filter((root) => root !== options.tempDir)
    // What commands planted since the last look is reverted before it could be taken as known.
    if (weakened !== 'no-file-protection') {
      // No sandbox ran since the last command ended with none left (quiet): a change of a guarded
      // executable since is the user's. Every launch clears it, so one running in parallel keeps it clear.
      const settled = quiet
      if (settled) watch.settleExecutables()
      watch.sweep()
      watch.sweepGuarded({ executables: !settled })
    }
    const inside = weakened === 'no-file-protection' ? { pinned: [], readOnly: [], absent: [], dshNames: [], repositories: [], worktrees: [] } : protectedInsideRoots(writable, { searched })
    watch.observe(inside, writable)
    const bound = weakened === 'no-file-protection' ? [] : watch.guardExecutables(executables.find(writable, inside.worktrees, (path) => watch.guardsExecutable(path)))
    quiet = false
    if (request.outlivesCall === true && weakened !== 'no-reaper') reaper.ensure()
    const masks = sandboxMasks({ env: options.env, home: options.home ?? '/nonexistent', dshHome: options.dshHome ?? '/nonexistent', uid: options.uid ?? -1, tempDir: options.tempDir, keep: [request.cwd, ...writable] })
    const shape: SandboxShape = {
      writable,
      privateTemp: kind === 'read-only' ? [options.tempDir] : [],
      ...(kind === 'read-only' ? {} : { tempBinding: { source: tempOf(request.session).path(), target: options.tempDir } }),
      reexposed: kind === 'read-only' ? [request.cwd] : [],
      pinned: inside.pinned,
      protectedDirs: [...(options.protectedDirs ?? []), ...inside.readOnly, ...bound],
      masked: masks,
      network: options.network,
      dieWithParent: request.outlivesCall !== true,
      sharePidNamespace: weakened === 'share-pid',
      ownerId: reaper.id,
    }
    return { shape, writable: roots, inside: [...inside.pinned, ...inside.readOnly, ...bound] }
  }
  return {
    status: probe,
    available: () => probe().kind === 'available',
    weakened,
    plan(request: LaunchRequest): LaunchPlan {
      const env = filterEnvironment(request.env, { drop: options.secretVariables, pass: options.passEnv ?? [] })
      if (kind === 'none' || probe().kind !== 'available') return { file: request.file, args: [...request.args], env, sandboxed: false, writable: [] }
      const { shape, writable, inside } = shapeOf(request)
      const plan: LaunchPlan = { file: 'bwrap', args: bwrapArguments(shape, request.cwd, request.file, request.args), env, sandboxed: true, writable }
      refusals.set(plan, { writable, cwd: request.cwd, protectedInside: inside })
      return plan
    },
    explain(output, plan) {
      if (!plan.sandboxed) return undefined
      watch.sweep()
      if (weakened !== 'no-file-protection') {
        watch.sweepRepositories()
        quiet = noSandboxRuns()
      }
      const notes = [sandboxRefusalNote(output, refusals.get(plan) ?? { writable: plan.writable }), watch.notice()].filter((note) => note !== undefined)
      return notes.length === 0 ? undefined : notes.join('\n')
    },
    exempt: (path) => watch.exempt(path),
    endSession(session) {
      temps.get(session)?.dispose()
      temps.delete(session)
    },
    dispose() {
      if (quiet && noSandboxRuns()) watch.settleExecutables()
      watch.dispose()
      reaper.dispose()
      for (const temp of temps.values()) temp.dispose()
      temps.clear()
    },
  }
}
