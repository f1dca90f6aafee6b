/**
 * The in-use message of a step after a compaction: the skills the compaction took from the model
 * (in-use.ts), each read again now and substituted with the arguments it was called with, most
 * recent first, within `skills.maxInUseBytes`; those the budget leaves out and those gone are
 * named. The message carries every dropped skill in its typed source, so it is sent once per
 * compaction (a resume repeats nothing; the next compaction that replaces it sends it again).
 * Rethrows only cancellation.
 */
import type { FileSystemPort, SessionView, UserMessage } from '@dsh/contracts'
import { createUserMessage } from '@dsh/runtime'
import { folderDisplay } from './catalog-text.ts'
import { droppedSkills, inUseSource } from './in-use.ts'
import { inUseBlock, inUseGone, inUseLeftOut, renderInUse } from './in-use-text.ts'
import { readAgain } from './read-again.ts'
import { substitute } from './substitute.ts'
import type { SkillSet } from './types.ts'

/** Default of `skills.maxInUseBytes`: UTF-8 bytes of skill instructions one in-use message carries. */
export const DEFAULT_MAX_IN_USE_BYTES = 16 * 1024

/** What one delivery reads. */
export interface InUseInput {
  readonly session: SessionView
  readonly set: SkillSet
  readonly fs: FileSystemPort
  readonly maxSkillBytes: number
  readonly maxBytes: number
  readonly signal: AbortSignal
}

/** The in-use message for this step, or undefined when no compaction took a skill from the model. */
export async function inUseMessage(input: InUseInput): Promise<UserMessage | undefined> {
  const dropped = droppedSkills(input.session)
  if (dropped.length === 0) return undefined
  const blocks: string[] = []
  const leftOut: string[] = []
  const gone: string[] = []
  let bytes = 0
  for (const invocation of dropped) {
    const skill = input.set.skills.get(invocation.key)
    // A skill only a person may invoke comes back too: the person invoked it (the tool refuses the model).
    if (skill === undefined) {
      gone.push(`${invocation.key} (not in the skills catalog now)`)
      continue
    }
    const fresh = await readAgain({ fs: input.fs, skill, linkRoots: input.set.linkRoots, maxSkillBytes: input.maxSkillBytes, signal: input.signal })
    if (fresh.kind === 'broken') {
      gone.push(`${invocation.key} (${fresh.problem})`)
      continue
    }
    const body = substitute(fresh.body, { arguments: invocation.arguments, skillDir: skill.folder })
    const block = inUseBlock({ key: invocation.key, folder: folderDisplay(skill.folder, input.set.projectRoot), arguments: invocation.arguments, body })
    const size = Buffer.byteLength(block) + 2
    if (bytes + size > input.maxBytes) {
      leftOut.push(invocation.key)
      continue
    }
    bytes += size
    blocks.push(block)
  }
  const text = renderInUse({ blocks, leftOut: leftOut.length === 0 ? undefined : inUseLeftOut(leftOut, input.maxBytes), gone: gone.length === 0 ? undefined : inUseGone(gone) })
  return createUserMessage({ text, source: inUseSource(dropped) })
}
