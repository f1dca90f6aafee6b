/**
 * Which `skills` directories a session looks in, in precedence order (an earlier one wins a clash):
 * every directory from the cwd up to the project root (more specific first), each with `.dsh`,
 * `.agents`, `.claude`; then the top level of each additional root; then `$DSH_HOME/skills`,
 * `~/.agents/skills` and `~/.claude/skills` (Claude Code's personal skills), each unless it is one
 * of the earlier directories already (a home inside the chain). Directories below the cwd that
 * joined on touch come last: their skills never shadow others, a clashing one is qualified by its
 * directory instead (`pkg/web:deploy`).
 */
import { join } from 'node:path'
import { chainDirs, relKey } from '@dsh/workspace-context'
import type { SkillFamily, SkillSource } from './types.ts'

/** The folder kinds of one directory, in precedence order. */
export const FAMILIES: readonly SkillFamily[] = ['.dsh', '.agents', '.claude']

/** Inputs of {@link skillSources}. */
export interface SourcesInput {
  readonly projectRoot: string
  /** Canonical working directory. */
  readonly cwd: string
  /** Canonical paths of the available additional roots. */
  readonly additionalRoots: readonly string[]
  readonly dshHome: string
  /** The OS home (for `~/.agents/skills` and `~/.claude/skills`). */
  readonly home: string
  /** Absolute directories below the cwd whose skills joined (touched). */
  readonly nestedDirs: readonly string[]
  /** The families each nested directory holds, where known (a listing); a directory missing here, or mapped to undefined, gets all three. */
  readonly nestedFamilies?: ReadonlyMap<string, readonly SkillFamily[] | undefined>
  /**
   * The sources of nested directories from an earlier call with the same project root (a session
   * keeps one): a directory whose families are unchanged reuses its sources, so a join costs the
   * new directory only. Written by the call.
   */
  readonly nestedMemo?: Map<string, { readonly held: readonly SkillFamily[]; readonly sources: readonly SkillSource[] }>
}

/** Every source directory in precedence order. */
export function skillSources(input: SourcesInput): SkillSource[] {
  const sources: SkillSource[] = []
  for (const dir of chainDirs(input.projectRoot, input.cwd).toReversed()) {
    for (const family of FAMILIES) sources.push({ dir: join(dir.abs, family, 'skills'), scope: 'project', family, rel: dir.rel })
  }
  for (const root of input.additionalRoots) {
    for (const family of FAMILIES) sources.push({ dir: join(root, family, 'skills'), scope: 'additional-root', family, rel: undefined })
  }
  // A home that is itself in the chain (dsh run in ~, a dotfiles repository) offers its folders once, as project ones.
  for (const source of userSources(input)) if (!sources.some((earlier) => earlier.dir === source.dir)) sources.push(source)
  sources.push(...nestedSources(input))
  return sources
}

/** The user's skills folders in precedence order: `$DSH_HOME/skills`, `~/.agents/skills`, `~/.claude/skills` (also link roots: discover.ts). */
export function userSources(input: Pick<SourcesInput, 'dshHome' | 'home'>): SkillSource[] {
  return [
    { dir: join(input.dshHome, 'skills'), scope: 'user', family: 'user', rel: undefined },
    { dir: join(input.home, '.agents', 'skills'), scope: 'user', family: '.agents', rel: undefined },
    { dir: join(input.home, '.claude', 'skills'), scope: 'user', family: '.claude', rel: undefined },
  ]
}

/** The sources of the nested directories alone (the tail of {@link skillSources}). */
export function nestedSources(input: Pick<SourcesInput, 'projectRoot' | 'nestedDirs' | 'nestedFamilies' | 'nestedMemo'>): SkillSource[] {
  const sources: SkillSource[] = []
  for (const dir of [...new Set(input.nestedDirs)].toSorted()) sources.push(...sourcesOfDir(input, dir))
  return sources
}

function sourcesOfDir(input: Pick<SourcesInput, 'projectRoot' | 'nestedFamilies' | 'nestedMemo'>, dir: string): readonly SkillSource[] {
  const held = input.nestedFamilies?.get(dir) ?? FAMILIES
  const known = input.nestedMemo?.get(dir)
  if (known !== undefined && sameFamilies(known.held, held)) return known.sources
  const rel = relKey(input.projectRoot, dir)
  const sources = held.map((family): SkillSource => ({ dir: join(dir, family, 'skills'), scope: 'nested', family, rel }))
  input.nestedMemo?.set(dir, { held, sources })
  return sources
}

/** True when `a` and `b` list the same families in the same order. */
export const sameFamilies = (a: readonly SkillFamily[], b: readonly SkillFamily[]): boolean => a === b || (a.length === b.length && a.every((family, index) => family === b[index]))
