/**
 * Runs the hooks of one event for one session and records each run in that session's log
 * (`hooks/run`, and `hooks/decision` for what the caller decided). Observer events (hooks nothing
 * waits for: InstructionsLoaded, RootChanged) run in the background, one event after the other
 * per session (a hook sees a session's changes in the order they happened, never two at once);
 * they are tracked per session so a front end can wait for them (`settle`) before the turn ends or
 * the session closes, which is what makes their records land in the log, and in stream-json,
 * deterministically. `async` hooks run in the background too, but nothing waits for them: their
 * record lands when they end, what they say for the model goes to `late`, and `close` gives the
 * ones still going a grace period before it ends them.
 */
import type { AgentHandle } from '@dsh/contracts'
import { errorMessage } from '@dsh/runtime'
import { join } from 'node:path'
import { hookEnvironment } from './hook-env.ts'
import { hookShell } from './hook-shell.ts'
import type { HookEntry, HookEventName, HookRun } from './hook-types.ts'
import { combineRuns, hookLabel, type HookVerdict } from './hook-verdict.ts'
import { runHook } from './run-hook.ts'

/** What a hook runs for: a live agent, or (a session no agent holds now) its id and directory. */
export type HookTarget = Pick<AgentHandle, 'id' | 'cwd'> & Partial<Pick<AgentHandle, 'recordEvent' | 'inject'>>

/** How long closing the runner waits for background runs before it ends them. */
export const BACKGROUND_GRACE_MS = 10_000

/** How long that wait goes unmentioned. */
const QUIET_WAIT_MS = 1000

/** Options of {@link createHookRunner}. */
export interface HookRunnerOptions {
  readonly cwd: string
  readonly dshHome: string
  readonly env: Readonly<Record<string, string | undefined>>
  readonly secretNames?: readonly string[] | undefined
  readonly permissionMode: string
  readonly warn: (line: string) => void
  /**
   * Receives what a background run said for the model (feedback of an exit 2 or a block, its
   * additional context), once it ended, to deliver at the target's next step. Absent: dropped.
   */
  readonly late?: (target: HookTarget, event: HookEventName, texts: readonly string[]) => void
}

/** Runs hooks; see the module header. */
export interface HookRunner {
  /** Runs `entries` of `event` in parallel and combines what they said; never rejects. */
  run(event: HookEventName, target: HookTarget | undefined, extra: Record<string, unknown>, entries: readonly HookEntry[], signal?: AbortSignal): Promise<HookVerdict>
  /** Runs observer hooks in the background after the session's earlier observer events (tracked for {@link settle}). */
  observe(event: HookEventName, target: HookTarget, extra: Record<string, unknown>, entries: readonly HookEntry[]): void
  /** Resolves once the observer runs of session `id` started so far have ended and are recorded. */
  settle(id: string): Promise<void>
  /** Records a `hooks/decision` event. */
  decision(target: HookTarget | undefined, data: Record<string, unknown>): void
  /**
   * Waits for the background runs (`async` hooks) of session `id` still going, at most `graceMs`,
   * then ends the rest (their process groups are killed, and the person is told). Resolves when
   * all of them ended. The front ends' `sessionEnd` calls it while the session is still open.
   */
  drain(id: string, graceMs?: number): Promise<void>
  /** {@link drain} for every session (the plugin is disposed: dsh is stopping). */
  close(graceMs?: number): Promise<void>
}

/** Appends to the target's log; a session closed meanwhile keeps no record (the run happened anyway). */
function append(target: HookTarget | undefined, type: string, data: unknown, warn: (line: string) => void): void {
  try {
    target?.recordEvent?.(type, data)
  } catch (error) {
    // The session was closed (or its file failed) while the hook ran: the record is lost, not the run.
    warn(`warning: hooks: the ${type} record of session ${target?.id ?? '?'} was not written: ${errorMessage(error)}`)
  }
}

/** Creates a runner. */
export function createHookRunner(options: HookRunnerOptions): HookRunner {
  const pending = new Map<string, Set<Promise<void>>>()
  /** Background runs going on, each with the controller that ends it and its session. */
  const background = new Map<Promise<void>, { readonly controller: AbortController; readonly session: string }>()
  /** Set by `close`: sessions may be closed already, so a late record that cannot be written is not worth a warning. */
  let closing = false
  /** Per session, the `once` hooks that ran already (by file, position and command). */
  const ranOnce = new Map<string, Set<string>>()
  const firstTime = (id: string, entry: HookEntry): boolean => {
    if (entry.once !== true) return true
    const key = `${entry.source.file}\u0000${entry.where}\u0000${entry.command}`
    const ran = ranOnce.get(id) ?? new Set<string>()
    ranOnce.set(id, ran)
    if (ran.has(key)) return false
    ran.add(key)
    return true
  }
  /** The last observer event queued per session: the next one starts when it has ended. */
  const tails = new Map<string, Promise<void>>()
  const run: HookRunner['run'] = async (event, target, extra, entries, signal) => {
    const cwd = target?.cwd ?? options.cwd
    const input = {
      session_id: target?.id ?? '',
      transcript_path: target === undefined ? '' : join(options.dshHome, 'sessions', `${target.id}.jsonl`),
      cwd,
      permission_mode: options.permissionMode,
      hook_event_name: event,
      ...extra,
    }
    const env = hookEnvironment(options.env, options.secretNames ?? [], cwd)
    const shell = hookShell(env)
    // The same command configured twice (two files) runs once; a `once` hook that ran in the session does not run again.
    const unique = [...new Map(entries.map((entry) => [entry.command, entry])).values()].filter((entry) => firstTime(target?.id ?? '', entry))
    for (const entry of unique) if (entry.background === true) inBackground(event, target, entry, () => ({ input, cwd, env, shell }))
    const runs = await Promise.all(unique.filter((entry) => entry.background !== true).map((entry) => runHook({ entry, input, cwd, env, shell, signal })))
    for (const done of runs) append(target, 'hooks/run', runRecord(done), options.warn)
    const verdict = combineRuns(event, runs)
    for (const message of verdict.messages) options.warn(message)
    return verdict
  }
  /** Starts one background run: its record and what it said land when it ends; the step does not wait. */
  const inBackground = (event: HookEventName, target: HookTarget | undefined, entry: HookEntry, how: () => Omit<Parameters<typeof runHook>[0], 'entry' | 'signal'>): void => {
    const controller = new AbortController()
    const done: Promise<void> = runHook({ entry, ...how(), signal: controller.signal }).then((finished) => {
      background.delete(done)
      if (controller.signal.aborted) {
        // Ended by `close`: dsh is stopping and the session is closed, so the person is told instead of the log.
        options.warn(`warning: the ${hookLabel(finished)} was still running when dsh stopped and was ended`)
        return
      }
      // While dsh stops, the session may be closed: the record is then lost, the run happened (said nowhere on purpose).
      append(target, 'hooks/run', { ...runRecord(finished), background: true }, closing ? () => undefined : options.warn)
      const verdict = combineRuns(event, [finished], true)
      for (const message of verdict.messages) options.warn(message)
      const texts = [...(verdict.block === undefined ? [] : [verdict.block]), ...verdict.contexts]
      if (texts.length > 0 && target !== undefined) options.late?.(target, event, texts)
    }).catch((error: unknown) => {
      // Nothing above should throw; if it does, the person hears of it and no rejection is left unhandled.
      options.warn(`warning: hooks: a background ${event} hook's end could not be handled: ${errorMessage(error)}`)
    })
    background.set(done, { controller, session: target?.id ?? '' })
  }
  const drain = async (id: string | undefined, graceMs: number): Promise<void> => {
    const runs = [...background].filter(([, going]) => id === undefined || going.session === id)
    if (runs.length === 0) return
    const all = Promise.all(runs.map(([done]) => done))
    let timer: ReturnType<typeof setTimeout> | undefined
    const after = (ms: number): Promise<void> => new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))
    // A quick hook ends unnoticed; one still running after a second is named while dsh waits for it.
    const quiet = Math.min(QUIET_WAIT_MS, graceMs)
    await Promise.race([all, after(quiet)])
    clearTimeout(timer)
    const left = runs.filter(([done]) => background.has(done)).length
    if (left > 0) {
      options.warn(`waiting for ${left} hook${left === 1 ? '' : 's'} running in the background (at most ${Math.round((graceMs - quiet) / 1000)} s more)`)
      await Promise.race([all, after(graceMs - quiet)])
      clearTimeout(timer)
    }
    for (const [, going] of runs) going.controller.abort()
    await Promise.all(runs.map(([done]) => done))
  }
  return {
    run,
    drain: (id, graceMs = BACKGROUND_GRACE_MS) => drain(id, graceMs),
    close: async (graceMs = BACKGROUND_GRACE_MS) => {
      closing = true
      await drain(undefined, graceMs)
    },
    observe: (event, target, extra, entries) => {
      const runs = pending.get(target.id) ?? new Set<Promise<void>>()
      pending.set(target.id, runs)
      // `run` never rejects, so the chain never breaks.
      const done: Promise<void> = (tails.get(target.id) ?? Promise.resolve())
        .then(() => run(event, target, extra, entries))
        .then(() => {
          runs.delete(done)
          if (runs.size === 0 && pending.get(target.id) === runs) pending.delete(target.id)
          if (tails.get(target.id) === done) tails.delete(target.id)
        })
      tails.set(target.id, done)
      runs.add(done)
    },
    settle: async (id) => {
      // Runs started while waiting are waited for too.
      for (let runs = pending.get(id); runs !== undefined && runs.size > 0; runs = pending.get(id)) await Promise.all(runs)
    },
    decision: (target, data) => append(target, 'hooks/decision', data, options.warn),
  }
}

function runRecord(done: HookRun): Record<string, unknown> {
  return {
    event: done.entry.event,
    command: done.entry.command,
    source: `${done.entry.source.file}: ${done.entry.where}`,
    outcome: done.outcome,
    exitCode: done.exitCode,
    ...(done.outcome === 'ok' ? {} : { detail: hookLabel(done) }),
  }
}
