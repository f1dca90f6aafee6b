/**
 * The precedent gate, the target-scoped half of `tools/pre-execute`: a write, edit, destructive
 * tool or shell statement whose target lies in a guarded area is denied until this session has
 * read the target itself or any file with the same basename. The denial lists precedents found by
 * the sibling walk. Bounded: after `maxDeniesPerTarget` denials for one target the call is let
 * through and logged. Dry run counts (`wouldDeny`) and spends the same budget without denying.
 */
import { basename } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import type { Counters } from './counters.ts'
import { displayPath } from './document-roles.ts'
import { precedentDenial, type Denial } from './gate-texts.ts'
import { isGuarded } from './guarded-area.ts'
import { isInside } from './document-probe.ts'
import { findPrecedents } from './precedent-candidates.ts'
import type { ResolvedConfig } from './resolve-config.ts'
import type { SessionState } from './session-state.ts'

/** A file the call would write. */
export interface WriteTarget {
  /** Canonical absolute path (Windows paths from PowerShell text keep their drive form). */
  readonly path: string
  /** The shell statement that writes it, for shell calls. */
  readonly shellStatement?: string
}

/** What the gate needs. */
export interface PrecedentContext {
  readonly fs: FileSystemPort
  readonly state: SessionState
  readonly gate: ResolvedConfig['gate']
  readonly counters: Counters
  readonly log: (line: string) => void
  readonly tool: string
  readonly cwd: string
  readonly targets: readonly WriteTarget[]
  /** Canonical workspace roots (cwd, project root): the sibling walk stays inside the one holding the target. */
  readonly roots: readonly string[]
  readonly signal: AbortSignal
}

/** True when the session read `path` or a file with its basename. */
export function hasPrecedent(state: SessionState, path: string): boolean {
  return state.reads.has(path) || state.readNames.has(basename(path))
}

/** Judges the call; returns a denial or `undefined`. */
export async function precedentStage(context: PrecedentContext): Promise<Denial | undefined> {
  const { gate, state, counters } = context
  if (!gate.enabled) return undefined
  const target = context.targets.find((candidate) => isGuarded(candidate.path, gate))
  if (target === undefined || hasPrecedent(state, target.path)) return undefined
  const shown = displayPath(context.cwd, target.path)
  const denies = state.denies.get(target.path) ?? 0
  if (denies >= gate.maxDeniesPerTarget) {
    counters.add('gaveUp')
    context.log(`maintainer-doc-guard: let ${context.tool} on ${shown} through after ${denies} denials without a precedent read`)
    return undefined
  }
  state.denies.set(target.path, denies + 1)
  const boundary = context.roots.filter((root) => isInside(root, target.path)).toSorted((a, b) => a.length - b.length)[0]
  const candidates = await findPrecedents(context.fs, { target: target.path, scanLevels: gate.scanLevels, entriesPerLevel: gate.entriesPerLevel, maxCandidates: gate.maxCandidates, boundary, signal: context.signal })
  if (gate.dryRun) {
    counters.add('wouldDeny')
    return undefined
  }
  counters.add('denied')
  counters.note('lastDenied', { path: target.path, tool: context.tool, candidates })
  return precedentDenial({
    tool: context.tool,
    target: shown,
    basename: basename(target.path),
    candidates: candidates.map((path) => displayPath(context.cwd, path)),
    ...(target.shellStatement === undefined ? {} : { shellStatement: target.shellStatement }),
  })
}
