/**
 * Which `skills` directories a session looks in, in precedence order (lower rank wins a clash):
 * every directory from the cwd up to the project root (more specific first), each with `.dsh`,
 * `.agents`, `.claude`; then the top level of each additional root; then `$DSH_HOME/skills` and
 * `~/.agents/skills`. Directories below the cwd that joined on touch come last: their skills never
 * shadow others, a clashing one is qualified by its directory instead (`pkg/web:deploy`).
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
  /** The OS home (for `~/.agents/skills`). */
  readonly home: string
  /** Absolute directories below the cwd whose skills joined (touched). */
  readonly nestedDirs: readonly string[]
  /** The families each nested directory holds, where known (a listing); a directory missing here, or mapped to undefined, gets all three. */
  readonly nestedFamilies?: ReadonlyMap<string, readonly SkillFamily[] | undefined>
}

/** Every source directory in precedence order. */
export function skillSources(input: SourcesInput): SkillSource[] {
  const sources: SkillSource[] = []
  const push = (dir: string, source: Omit<SkillSource, 'dir' | 'rank'>): void => {
    sources.push({ dir, ...source, rank: sources.length })
  }
  for (const dir of chainDirs(input.projectRoot, input.cwd).toReversed()) {
    for (const family of FAMILIES) push(join(dir.abs, family, 'skills'), { scope: 'project', family, rel: dir.rel })
  }
  for (const root of input.additionalRoots) {
    for (const family of FAMILIES) push(join(root, family, 'skills'), { scope: 'additional-root', family, rel: undefined })
  }
  push(join(input.dshHome, 'skills'), { scope: 'user', family: 'user', rel: undefined })
  push(join(input.home, '.agents', 'skills'), { scope: 'user', family: '.agents', rel: undefined })
  for (const dir of [...new Set(input.nestedDirs)].toSorted()) {
    const held = input.nestedFamilies?.get(dir) ?? FAMILIES
    if (held.length === 0) continue
    for (const family of held) push(join(dir, family, 'skills'), { scope: 'nested', family, rel: relKey(input.projectRoot, dir) })
  }
  return sources
}
