/**
 * `inspectContext`: the baseline a new session in `cwd` would receive, and a report of every
 * directory and candidate examined (loaded, the same file as another, shadowed, left out or cut by
 * the budget, unreadable, escaping link, not UTF-8, special file, missing), with the candidate
 * names each directory could use. JSON-serialisable, with files named `{ root, dir, file }` (no
 * internal scope keys); `format-report.ts` renders it for people.
 */
import { isBlank } from './digest.ts'
import { chainDirs } from './directories.ts'
import { discover } from './discovery.ts'
import type { DirectoryExamination } from './directory-examiner.ts'
import { renderBaseline } from './render.ts'
import { decodeScope } from './scope-key.ts'
import { prepareStandalone, type StandaloneOptions } from './standalone.ts'
import type { CandidateProbe, LoadedFile, ScopeObservation } from './types.ts'
import { utf8Bytes } from './utf8.ts'

/** State of one examined candidate. */
export type CandidateState = 'loaded' | 'same-file' | 'empty' | 'truncated' | 'omitted-by-budget' | 'shadowed' | 'unreadable' | 'escaping-link' | 'not-utf8' | 'special-file' | 'not-a-file' | 'missing'

/** Where a file lives: its root (the project root, or `$DSH_HOME` for the user-global file), its root-relative directory and its name. */
export interface FileRef {
  /** Absolute root directory. */
  readonly root: string
  /** Directory relative to `root`, `/`-separated (`.` for the root itself). */
  readonly dir: string
  /** File name. */
  readonly file: string
}

/** One examined candidate. */
export interface CandidateReport extends FileRef {
  /** Model-visible path. */
  readonly path: string
  readonly state: CandidateState
  /** Content bytes when read. */
  readonly bytes?: number
  /** Bytes kept when truncated. */
  readonly includedBytes?: number
  /** Canonical path of the file read, when the candidate is reached through a link. */
  readonly linkTarget?: string
  /** Extra explanation (the shadowing file, the same file, a link target, a failure). */
  readonly detail?: string
}

/** One examined directory and the candidate names it could use, in precedence order. */
export interface DirectoryReport extends Omit<FileRef, 'file'> {
  /** `user-global` for `$DSH_HOME`, `project` for a directory of the root-to-cwd chain. */
  readonly kind: 'user-global' | 'project'
  /** Base candidate names (under the `first` policy the first existing one wins). */
  readonly candidates: readonly string[]
  /** Local overlay names (additive). */
  readonly localCandidates: readonly string[]
  /** Whether any candidate exists. */
  readonly found: boolean
}

/** One file of the baseline. */
export interface BaselineFileReport extends FileRef {
  /** Model-visible path. */
  readonly path: string
  /** SHA-256 of the file's content. */
  readonly digest: string
  /** Cut by the byte budget. */
  readonly truncated?: boolean
  /** Model-visible path of the file whose content this one shares (sent once, decision D9). */
  readonly sameAs?: string
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
  /** Model-visible path of the user-global file (`~/.dsh/AGENTS.md` or `$DSH_HOME/AGENTS.md`). */
  readonly userGlobalPath: string
  readonly enabled: boolean
  readonly maxBytes: number
  /** `first`: the first existing candidate of each list wins; `all`: every distinct one loads. */
  readonly candidatePolicy: 'first' | 'all'
  readonly baseline: { readonly text: string; readonly bytes: number; readonly files: readonly BaselineFileReport[] }
  readonly directories: readonly DirectoryReport[]
  readonly candidates: readonly CandidateReport[]
}

interface Budget {
  readonly truncated: ReadonlyMap<string, number>
  readonly omitted: ReadonlySet<string>
}

function classify(probe: CandidateProbe, observation: ScopeObservation | undefined, budget: Budget): Pick<CandidateReport, 'state' | 'detail' | 'bytes' | 'includedBytes'> {
  if (probe.state === 'absent') return probe.note === 'directory' ? { state: 'not-a-file' } : probe.note === 'special-file' ? { state: 'special-file' } : { state: 'missing', ...(probe.note === 'dangling-link' ? { detail: 'dangling link' } : {}) }
  if (probe.state === 'unavailable') return probe.reason === 'escaping-link' ? { state: 'escaping-link', detail: `link target outside the trusted roots: ${probe.detail ?? ''}` } : { state: 'unreadable', detail: probe.detail ?? probe.reason }
  if (observation === undefined) return { state: 'shadowed', detail: 'an earlier candidate in this directory takes precedence' }
  if (observation.state === 'unavailable') {
    if (observation.reason === 'sibling-unavailable') return { state: 'shadowed', detail: `not loaded while an earlier candidate in this directory cannot be read (${observation.detail ?? ''})` }
    if (observation.reason === 'not-utf8' || observation.reason === 'binary') return { state: 'not-utf8', detail: observation.reason }
    if (observation.reason === 'special-file-at-open') return { state: 'special-file' }
    return { state: 'unreadable', detail: observation.reason === 'too-large' ? `larger than maxSourceBytes${observation.detail === undefined ? '' : ` (${observation.detail})`}` : (observation.detail ?? observation.reason) }
  }
  if (observation.state === 'absent') return { state: 'shadowed', detail: 'same content as an earlier candidate in this directory' }
  if (observation.sameAs !== undefined && !budget.omitted.has(observation.scope.key)) return { state: 'same-file', bytes: observation.bytes, detail: `the same file as ${observation.sameAs.path} (sent once)` }
  if (isBlank(observation)) return { state: 'empty', bytes: observation.bytes, detail: 'nothing to send' }
  const key = observation.scope.key
  if (budget.omitted.has(key)) return { state: 'omitted-by-budget', bytes: observation.bytes }
  const kept = budget.truncated.get(key)
  return kept === undefined ? { state: 'loaded', bytes: observation.bytes } : { state: 'truncated', bytes: observation.bytes, includedBytes: kept }
}

/** Why a present candidate the winner shadows is not used (`first` policy). */
function shadowing(probes: readonly CandidateProbe[], probe: CandidateProbe, lists: readonly (readonly string[])[]): string | undefined {
  const list = lists.find((names) => names.includes(probe.name))
  const winner = list === undefined ? undefined : probes.find((p) => list.includes(p.name) && p.state !== 'absent')
  return winner === undefined || winner === probe ? undefined : `by ${winner.name}, which takes precedence in this directory`
}

interface DirectoryInput {
  readonly kind: DirectoryReport['kind']
  readonly root: string
  readonly dir: string
  readonly base: readonly string[]
  readonly local: readonly string[]
  readonly exam: DirectoryExamination
}

function reportDirectory(input: DirectoryInput, observations: ReadonlyMap<string, ScopeObservation>, budget: Budget): CandidateReport[] {
  const { exam } = input
  return exam.probes.map((probe) => {
    const path = input.kind === 'user-global' ? (exam.observations[0]?.path ?? probe.name) : input.dir === '.' ? probe.name : `${input.dir}/${probe.name}`
    const observation = observations.get(path)
    const link = probe.state === 'present' && probe.target !== probe.path ? { linkTarget: probe.target } : {}
    const classified = classify(probe, observation, budget)
    const shadowedBy = classified.state === 'shadowed' && observation === undefined ? shadowing(exam.probes, probe, [input.base, input.local]) : undefined
    const detail = shadowedBy ?? classified.detail ?? (probe.state === 'present' && probe.target !== probe.path ? `link to ${probe.target}` : undefined)
    return { root: input.root, dir: input.dir, file: probe.name, path, ...classified, ...link, ...(detail === undefined ? {} : { detail }) }
  })
}

/** Examines what a new session in `options.cwd` would load. */
export async function inspectContext(options: InspectOptions): Promise<ContextReport> {
  const { config, instance, plan, pass } = await prepareStandalone(options)
  const chain = chainDirs(instance.project.root, instance.cwd)
  const found = config.enabled ? await discover(plan, pass, chain, true) : { observations: [], details: new Map<string, DirectoryExamination>() }
  const files: LoadedFile[] = []
  for (const o of found.observations) {
    if (o.state !== 'present' || o.content === undefined || isBlank(o)) continue
    files.push({ scope: o.scope, path: o.path, content: o.content, digest: o.digest, ...(o.sameAs === undefined ? {} : { sameAs: { ...o.sameAs, inEffect: false } }) })
  }
  const rendered = renderBaseline(files, config.maxBytes, { maxFileShare: config.maxFileShare })
  const budget: Budget = { truncated: rendered.cuts ?? new Map(), omitted: new Set(rendered.omitted.map((f) => f.scope.key)) }
  const observations = new Map(found.observations.flatMap((o) => (o.state === 'absent' && o.path === undefined ? [] : [[o.path ?? '', o] as const])))
  const directories: DirectoryReport[] = []
  const candidates: CandidateReport[] = []
  for (const [key, exam] of found.details) {
    const home = key === 'user-global'
    const input: DirectoryInput = home
      ? { kind: 'user-global', root: instance.dshHome, dir: '.', base: ['AGENTS.md'], local: [], exam }
      : { kind: 'project', root: instance.project.root, dir: key, base: config.instructionFileCandidates, local: config.localInstructionFileCandidates.filter((name) => !config.instructionFileCandidates.includes(name)), exam }
    directories.push({ kind: input.kind, root: input.root, dir: input.dir, candidates: input.base, localCandidates: input.local, found: exam.probes.some((p) => p.state !== 'absent' || p.note !== 'missing') })
    candidates.push(...reportDirectory(input, observations, budget))
  }
  const baselineFiles = rendered.changes.map((change): BaselineFileReport => {
    const scope = decodeScope(change.scope)
    const where = scope?.kind === 'project' ? { root: instance.project.root, dir: scope.dir } : { root: instance.dshHome, dir: '.' }
    const file = change.path.split('/').at(-1) ?? change.path
    return { ...where, file, path: change.path, digest: change.digest ?? '', ...(change.truncated === true ? { truncated: true } : {}), ...(change.sameAs === undefined ? {} : { sameAs: change.sameAs.path }) }
  })
  return {
    cwd: instance.cwd,
    projectRoot: instance.project.root,
    projectRootVia: instance.project.via,
    ...(instance.project.marker === undefined ? {} : { projectRootMarker: instance.project.marker }),
    dshHome: instance.dshHome,
    userGlobalPath: config.userGlobalDisplay,
    enabled: config.enabled,
    maxBytes: config.maxBytes,
    candidatePolicy: config.candidatePolicy,
    baseline: { text: rendered.text, bytes: utf8Bytes(rendered.text), files: baselineFiles },
    directories,
    candidates,
  }
}
