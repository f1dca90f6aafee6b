/**
 * Runs the hooks of one event for one session and records each run in that session's log
 * (`hooks/run`, and `hooks/decision` for what the caller decided). Observer events (hooks nothing
 * waits for: InstructionsLoaded, RootChanged) run in the background, one event after the other
 * per session (a hook sees a session's changes in the order they happened, never two at once);
 * they are tracked per session so a front end can wait for them (`settle`) before the turn ends or
 * the session closes, which is what makes their records land in the log, and in stream-json,
 * deterministically.
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
export type HookTarget = Pick<AgentHandle, 'id' | 'cwd'> & Partial<Pick<AgentHandle, 'recordEvent'>>

/** Options of {@link createHookRunner}. */
export interface HookRunnerOptions {
  readonly cwd: string
  readonly dshHome: string
  readonly env: Readonly<Record<string, string | undefined>>
  readonly secretNames?: readonly string[] | undefined
  readonly permissionMode: string
  readonly warn: (line: string) => void
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
    const runs = await Promise.all(unique.map((entry) => runHook({ entry, input, cwd, env, shell, signal })))
    for (const done of runs) append(target, 'hooks/run', runRecord(done), options.warn)
    const verdict = combineRuns(event, runs)
    for (const message of verdict.messages) options.warn(message)
    return verdict
  }
  return {
    run,
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
