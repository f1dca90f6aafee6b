/**
 * `explainPath` (`dsh context why PATH`): which instruction files apply to work on PATH, in
 * precedence order (broad first, most specific last), each with the reason it applies and how
 * it reaches the model (baseline at session start, or on the first touch below the cwd).
 */
import { dirname, isAbsolute, resolve } from 'node:path'
import { rethrowIfAborted } from './abort.ts'
import { isBlank } from './digest.ts'
import { chainDirs, relKey, type DirRef } from './directories.ts'
import { discover } from './discovery.ts'
import { canonical } from './instance.ts'
import { prepareStandalone, type StandaloneOptions } from './standalone.ts'
import { terminalLine } from './terminal-text.ts'
import { isInsideRoot } from './trusted-roots.ts'

/** Options of {@link explainPath}. */
export interface ExplainOptions extends StandaloneOptions {
  /** The file or directory to explain (absolute, or relative to `cwd`). */
  readonly path: string
}

/** One applicable file. */
export interface ExplainedFile {
  /** Model-visible path. */
  readonly path: string
  /** Why it applies. */
  readonly reason: string
  /** How it reaches the model. */
  readonly delivery: 'baseline' | 'on-first-touch' | 'not-automatic'
}

/** The explanation. */
export interface PathExplanation {
  /** Canonical absolute path explained (a relative path is resolved against the working directory). */
  readonly target: string
  /** Whether something exists at `target`: `missing` paths are explained as a file created there. */
  readonly status: 'exists' | 'missing' | 'unavailable'
  /** Directories whose instruction files apply, root-relative, broad to specific (empty outside the project). */
  readonly chain: readonly string[]
  readonly projectRoot: string
  /** False when the path lies outside the project root (only user-global instructions apply). */
  readonly insideProject: boolean
  /** Applicable files, broad to specific. */
  readonly files: readonly ExplainedFile[]
  /** Candidates that exist but do not apply, with the reason. */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[]
}

async function directoryOf(options: ExplainOptions, target: string): Promise<{ dir: string; status: PathExplanation['status'] }> {
  try {
    const info = await options.fs.stat(target, options.signal)
    if (info === undefined) return { dir: dirname(target), status: 'missing' }
    return { dir: info.type === 'directory' ? target : dirname(target), status: 'exists' }
  } catch (error) {
    // An unreadable target is explained by its parent directory, like a file would be.
    rethrowIfAborted(error, options.signal)
    return { dir: dirname(target), status: 'unavailable' }
  }
}

const HOW = {
  baseline: 'part of the session baseline (between the project root and the working directory)',
  'on-first-touch': 'loaded when the agent first reads, writes or edits a file under it',
  'not-automatic': 'outside the working directory, so not loaded automatically',
} as const

/** Explains which instruction files apply to work on `options.path`. */
export async function explainPath(options: ExplainOptions): Promise<PathExplanation> {
  const { instance, plan, pass } = await prepareStandalone(options)
  const root = instance.project.root
  const target = await canonical(options.fs, isAbsolute(options.path) ? options.path : resolve(instance.cwd, options.path), options.signal)
  const { dir, status } = await directoryOf(options, target)
  const insideProject = isInsideRoot(root, dir)
  const dirs: DirRef[] = insideProject ? chainDirs(root, dir) : []
  const baselineDirs = new Set(chainDirs(root, instance.cwd).map((d) => d.rel))
  const found = await discover(plan, pass, dirs, true)
  const files: ExplainedFile[] = []
  const skipped: { path: string; reason: string }[] = []
  for (const o of found.observations) {
    if (o.state === 'unavailable') skipped.push({ path: o.path, reason: o.reason === 'sibling-unavailable' ? 'not used while an earlier candidate in its directory cannot be read (a duplicate cannot be ruled out)' : `exists but cannot be used (${o.reason})` })
    if (o.state === 'absent' && o.path !== undefined) skipped.push({ path: o.path, reason: 'same content as an earlier candidate in its directory' })
    if (o.state !== 'present') continue
    if (isBlank(o)) {
      skipped.push({ path: o.path, reason: 'empty: nothing to apply' })
      continue
    }
    if (o.scope.kind === 'user-global') {
      files.push({ path: o.path, reason: 'user-global instructions apply to work in every workspace', delivery: 'baseline' })
      continue
    }
    const where = o.scope.dir === '.' ? 'the project root' : `\`${o.scope.dir}\``
    const kind = o.scope.slot === 'local' || o.scope.slot.includes('.local.') ? 'local overlay (additive) for' : 'instructions for'
    const relation = relKey(root, dir) === o.scope.dir ? "the path's own directory" : 'an ancestor of the path'
    const below = isInsideRoot(instance.cwd, resolve(root, o.scope.dir)) && !baselineDirs.has(o.scope.dir)
    const delivery = baselineDirs.has(o.scope.dir) ? 'baseline' : below ? 'on-first-touch' : 'not-automatic'
    const how = HOW[delivery]
    const same = o.sameAs === undefined ? '' : `; the same file as ${o.sameAs.path} (sent once)`
    files.push({ path: o.path, reason: `${kind} ${where} (${relation}); ${how}${same}`, delivery })
  }
  return { target, status, chain: dirs.map((d) => d.rel), projectRoot: root, insideProject, files, skipped }
}

/** Formats an explanation for a terminal (repository-derived strings made terminal-safe). */
export function formatExplanation(explanation: PathExplanation): string {
  const safe = terminalLine
  const chain = explanation.chain.map((dir) => safe(dir)).join(' → ')
  const first =
    explanation.status === 'exists'
      ? `Instruction files that apply to ${safe(explanation.target)}`
      : `${safe(explanation.target)} ${explanation.status === 'missing' ? 'does not exist' : 'could not be examined'}; a file there would get the instruction files of its directories${chain === '' ? '' : ` (${chain})`}`
  const lines = [first, `(project root ${safe(explanation.projectRoot)}; more specific files are listed later and take precedence):`]
  if (!explanation.insideProject) lines.push('  The path is outside the project root; only user-global instructions apply.')
  if (explanation.files.length === 0) lines.push('  (none)')
  explanation.files.forEach((file, index) => lines.push(`  ${index + 1}. ${safe(file.path)} — ${safe(file.reason)}`))
  for (const skip of explanation.skipped) lines.push(`  skipped ${safe(skip.path)}: ${safe(skip.reason)}`)
  return lines.join('\n')
}
