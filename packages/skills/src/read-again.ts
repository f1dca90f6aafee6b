/**
 * A skill's SKILL.md read again at the moment it is used (the `skill` tool, the in-use message
 * after a compaction): through the same link-checked, bounded scan as discovery, confined to the
 * link roots of the set it came from, so the model gets the file as it is now.
 */
import { basename } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { scanFolder } from './scan.ts'
import type { BrokenSkill, LoadedSkill } from './types.ts'

/** What `readAgain` reads. */
export interface ReadAgainInput {
  readonly fs: FileSystemPort
  readonly skill: LoadedSkill
  readonly linkRoots: readonly string[]
  readonly maxSkillBytes: number
  readonly signal: AbortSignal
}

/** The skill as its file is now; broken with the problem when it cannot be used (gone included). Rethrows only cancellation. */
export async function readAgain(input: ReadAgainInput): Promise<LoadedSkill | BrokenSkill> {
  const { skill } = input
  const found = await scanFolder(skill.source, basename(skill.folder), { fs: input.fs, policy: { followSymlinks: true, trustedRoots: { fixed: input.linkRoots, extra: () => [] } }, maxSkillBytes: input.maxSkillBytes, signal: input.signal })
  return found ?? { kind: 'broken', file: skill.file, folder: skill.folder, problem: 'SKILL.md is gone', source: skill.source }
}
