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
  /** How often, while only background processes of commands run, the launcher looks whether they ended (ms; default 1000). */
  readonly survivorPollMs?: number
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
  const reaper = new SandboxReaper()
  // True from a sandboxed launch until a full look (hook files, executables and repositories too)
  // finds none of this launcher's sandboxes running (their init holds the owner id): until then
  // what appears or changes may be a sandbox's, a background process's included. A directory
  // event's look ends it only with no launch in flight (planned, its end not yet explained): a
  // command that just ended is looked at whole when its end is explained.
  let owed = false
  const inFlight = new Set<LaunchPlan>()
  // `owed` is false only after a look found no sandbox running and none was planned since: then none runs.
  const mayHaveRun = (): boolean => owed
  // While only background processes of commands run, a look each survivorPollMs: once none is
  // left, the full look that ends the doubt, so what the user makes afterwards stays at once.
  let survivors: ReturnType<typeof setInterval> | undefined
  const stopPolling = (): void => {
    if (survivors !== undefined) clearInterval(survivors)
    survivors = undefined
  }
  // After a full look: the doubt ends when no launch is in flight (its explained end looks again)
  // and none of this launcher's sandboxes runs; with only survivors left, polling starts.
  const looked = (): void => {
    if (inFlight.size > 0) return
    if (!reaper.anyAlive()) {
      owed = false
      stopPolling()
      return
    }
    if (survivors !== undefined) return
    survivors = setInterval(() => {
      if (inFlight.size > 0) return
      if (reaper.anyAlive()) return
      stopPolling()
      watch.sweep()
      watch.sweepRepositories()
      owed = false
    }, options.survivorPollMs ?? 1000)
    survivors.unref()
  }
  const watch: CreationWatch = new CreationWatch({
    ...(options.dshHome === undefined ? {} : { quarantine: join(options.dshHome, 'quarantine') }),
    warn: options.warn,
    sandboxMayHaveRun: mayHaveRun,
    afterSweep: () => {
      if (inFlight.size > 0 || reaper.anyAlive()) return
      watch.sweepRepositories()
      owed = false
      stopPolling()
    },
  })
  const executables = new ExecutableFiles()
  // What each plan kept read-only inside its roots, for the note on a refused change.
  const refusals = new WeakMap<LaunchPlan, RefusalContext>()
  const shapeOf = (request: LaunchRequest): { shape: SandboxShape; writable: string[]; inside: string[] } => {
    const roots = kind === 'read-only' ? [] : [...new Set([...request.writableRoots, ...(options.extraWritable ?? [])])]
    const writable = roots.filter((root) => root !== options.tempDir)
    const searched = request.writableRoots.filter((root) => root !== options.tempDir)
    // What commands planted since the last look is reverted before it could be taken as known; when
    // no sandbox can have run since, what changed is the user's and is kept as it is.
    if (weakened !== 'no-file-protection') {
      if (mayHaveRun()) {
        watch.sweep()
        watch.sweepGuarded()
        looked()
      } else watch.settle()
    }
    const inside = weakened === 'no-file-protection' ? { pinned: [], readOnly: [], absent: [], dshNames: [], repositories: [], worktrees: [] } : protectedInsideRoots(writable, { searched })
    watch.observe(inside, writable)
    const bound = weakened === 'no-file-protection' ? [] : watch.guardExecutables(executables.find(writable, inside.worktrees, (path) => watch.guardsExecutable(path)))
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
      owed = true
      inFlight.add(plan)
      return plan
    },
    explain(output, plan) {
      if (!plan.sandboxed) return undefined
      watch.sweep()
      if (weakened !== 'no-file-protection') watch.sweepRepositories()
      inFlight.delete(plan)
      looked()
      const notes = [sandboxRefusalNote(output, refusals.get(plan) ?? { writable: plan.writable }), watch.notice()].filter((note) => note !== undefined)
      return notes.length === 0 ? undefined : notes.join('\n')
    },
    exempt: (path) => watch.exempt(path),
    endSession(session) {
      temps.get(session)?.dispose()
      temps.delete(session)
    },
    dispose() {
      stopPolling()
      watch.dispose()
      reaper.dispose()
      for (const temp of temps.values()) temp.dispose()
      temps.clear()
    },
  }
}
