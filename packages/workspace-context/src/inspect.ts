/**
 * `inspectContext`: the baseline a new session in `cwd` would receive, and a report of every
 * candidate examined (loaded, shadowed, left out or cut by the budget, unreadable, escaping link,
 * not UTF-8, special file, missing). JSON-serialisable; `format-report.ts` renders it for people.
 */
import type { InstructionChange } from '@dsh/contracts'
import { chainDirs } from './directories.ts'
import { discover } from './discovery.ts'
import type { DirectoryExamination } from './directory-examiner.ts'
import { renderBaseline } from './render.ts'
import { prepareStandalone, type StandaloneOptions } from './standalone.ts'
import type { CandidateProbe, LoadedFile, ScopeObservation } from './types.ts'
import { utf8Bytes } from './utf8.ts'

/** State of one examined candidate. */
export type CandidateState = 'loaded' | 'truncated' | 'omitted-by-budget' | 'shadowed' | 'unreadable' | 'escaping-link' | 'not-utf8' | 'special-file' | 'not-a-file' | 'missing'

/** One examined candidate. */
export interface CandidateReport {
  /** Directory key: root-relative (`.` for the root) or `user-global`. */
  readonly directory: string
  readonly name: string
  /** Model-visible path. */
  readonly path: string
  readonly state: CandidateState
  /** Content bytes when read. */
  readonly bytes?: number
  /** Bytes kept when truncated. */
  readonly includedBytes?: number
  /** Extra explanation (the shadowing file, a link target, a failure). */
  readonly detail?: string
}

/** Options of {@link inspectContext}. */
export type InspectOptions = StandaloneOptions

/** The report. */
export interface ContextReport {
  readonly cwd: string
  readonly projectRoot: string
  readonly projectRootVia: 'marker' | 'cwd' | 'probe-failed'
  readonly projectRootMarker?: string
  readonly dshHome: string
  readonly enabled: boolean
  readonly maxBytes: number
  readonly baseline: { readonly text: string; readonly bytes: number; readonly changes: readonly InstructionChange[] }
  readonly candidates: readonly CandidateReport[]
}

function classify(probe: CandidateProbe, observation: ScopeObservation | undefined, winnerPath: string | undefined, budget: { truncated: Map<string, number>; omitted: Set<string> }): Pick<CandidateReport, 'state' | 'detail' | 'bytes' | 'includedBytes'> {
  if (probe.state === 'absent') return probe.note === 'directory' ? { state: 'not-a-file' } : probe.note === 'special-file' ? { state: 'special-file' } : { state: 'missing', ...(probe.note === 'dangling-link' ? { detail: 'dangling link' } : {}) }
  if (probe.state === 'unavailable') return probe.reason === 'escaping-link' ? { state: 'escaping-link', detail: `link target outside the trusted roots: ${probe.detail ?? ''}` } : { state: 'unreadable', detail: probe.detail ?? probe.reason }
  if (observation === undefined || observation.path !== winnerPath) return { state: 'shadowed', detail: 'an earlier candidate in this directory takes precedence' }
  if (observation.state === 'unavailable') {
    if (observation.reason === 'sibling-unavailable') return { state: 'shadowed', detail: `not loaded while an earlier candidate in this directory cannot be read (${observation.detail ?? ''})` }
    if (observation.reason === 'not-utf8' || observation.reason === 'binary') return { state: 'not-utf8', detail: observation.reason }
    if (observation.reason === 'special-file-at-open') return { state: 'special-file' }
    return { state: 'unreadable', detail: observation.reason === 'too-large' ? `larger than maxSourceBytes${observation.detail === undefined ? '' : ` (${observation.detail})`}` : (observation.detail ?? observation.reason) }
  }
  if (observation.state === 'absent') return { state: 'shadowed', detail: observation.note === 'duplicate' ? 'same content as an earlier candidate in this directory' : 'same file as the user-global instructions' }
  const key = observation.scope.key
  if (budget.omitted.has(key)) return { state: 'omitted-by-budget', bytes: observation.bytes }
  const kept = budget.truncated.get(key)
  return kept === undefined ? { state: 'loaded', bytes: observation.bytes } : { state: 'truncated', bytes: observation.bytes, includedBytes: kept }
}

function reportDirectory(directory: string, exam: DirectoryExamination, budget: Parameters<typeof classify>[3]): CandidateReport[] {
  return exam.probes.map((probe) => {
    const path = directory === 'user-global' ? (exam.observations[0]?.path ?? probe.name) : directory === '.' ? probe.name : `${directory}/${probe.name}`
    const observation = exam.observations.find((o) => o.path === path)
    return { directory, name: probe.name, path, ...classify(probe, observation, observation?.path, budget) }
  })
}

/** Examines what a new session in `options.cwd` would load. */
export async function inspectContext(options: InspectOptions): Promise<ContextReport> {
  const { config, instance, plan, pass } = await prepareStandalone(options)
  const found = config.enabled ? await discover(plan, pass, chainDirs(instance.project.root, instance.cwd), true) : { observations: [], details: new Map<string, DirectoryExamination>() }
  const files: LoadedFile[] = []
  for (const o of found.observations) if (o.state === 'present' && o.content !== undefined) files.push({ scope: o.scope, path: o.path, content: o.content, digest: o.digest })
  const rendered = renderBaseline(files, config.maxBytes)
  const truncated = new Map<string, number>()
  for (const change of rendered.changes) if (change.truncated === true) truncated.set(change.scope, rendered.keptBytes ?? 0)
  const budget = { truncated, omitted: new Set(rendered.omitted.map((f) => f.scope.key)) }
  const candidates = [...found.details].flatMap(([directory, exam]) => reportDirectory(directory, exam, budget))
  return {
    cwd: instance.cwd,
    projectRoot: instance.project.root,
    projectRootVia: instance.project.via,
    ...(instance.project.marker === undefined ? {} : { projectRootMarker: instance.project.marker }),
    dshHome: instance.dshHome,
    enabled: config.enabled,
    maxBytes: config.maxBytes,
    baseline: { text: rendered.text, bytes: utf8Bytes(rendered.text), changes: rendered.changes },
    candidates,
  }
}
