/**
 * The hooks in force, from every source: the config file's `hooks` section, the `hooks` namespace
 * of `$DSH_HOME/settings.yaml` (re-read when the file changes) and the project's files (only
 * those `dsh hooks trust` pinned run). Problems are one line each; the rest loads.
 */
import { join } from 'node:path'
import type { HookEntry, HookSource } from './hook-types.ts'
import { DEFAULT_MAX_STOP_CONTINUES, parseHooks } from './parse-hooks.ts'
import { readProjectHooks } from './project-hooks.ts'

/** Every configured hook, runnable or not. */
export interface HookSet {
  /** Every hook, untrusted project ones included (for `dsh hooks list`). */
  readonly all: readonly HookEntry[]
  /** One line per problem. */
  readonly problems: readonly string[]
  /** The cap on Stop continuations per turn. */
  readonly maxStopContinues: number
}

/** Where to read hooks from. */
export interface HookSetInputs {
  /** The project directory (the session's working directory). */
  readonly cwd: string
  readonly dshHome: string
  /** The config file (absolute) and its `hooks` section. */
  readonly config?: { readonly file: string; readonly section: unknown } | undefined
  /** The `hooks` namespace of settings.yaml as it is now. */
  readonly settingsSection?: unknown
}

/** Reads every source. */
export function loadHookSet(inputs: HookSetInputs): HookSet {
  const all: HookEntry[] = []
  const problems: string[] = []
  let maxStopContinues: number | undefined
  const add = (section: unknown, source: HookSource): void => {
    const parsed = parseHooks(section, source)
    all.push(...parsed.entries)
    problems.push(...parsed.problems)
    // A project file cannot raise the cap; the user's own files can set it.
    if (parsed.maxStopContinues !== undefined && source.kind !== 'project') maxStopContinues = parsed.maxStopContinues
  }
  if (inputs.config !== undefined) add(inputs.config.section, { kind: 'config', file: inputs.config.file, trusted: true })
  if (inputs.settingsSection !== undefined) add(inputs.settingsSection, { kind: 'settings', file: join(inputs.dshHome, 'settings.yaml'), trusted: true })
  for (const project of readProjectHooks(inputs.cwd, inputs.dshHome)) {
    if (project.problem !== undefined) problems.push(project.problem)
    else add(project.section, { kind: 'project', file: project.file, trusted: project.trusted })
  }
  return { all, problems, maxStopContinues: maxStopContinues ?? DEFAULT_MAX_STOP_CONTINUES }
}

/** The hooks that run: trusted ones of `event`. */
export function runnable(set: HookSet, event: HookEntry['event']): HookEntry[] {
  return set.all.filter((entry) => entry.event === event && entry.source.trusted)
}
