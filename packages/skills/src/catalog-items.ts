/**
 * The catalog items of a skill set: one rendered line per skill the model may invoke (not
 * `disable-model-invocation: true`), in precedence order, with its digest and byte size.
 */
import { contentDigest } from '@dsh/workspace-context'
import type { CatalogItem } from './catalog-delta.ts'
import { catalogLine } from './catalog-text.ts'
import type { LoadedSkill, SkillSet } from './types.ts'

/** The catalog items of `set`: every loaded skill the model may invoke, in precedence order; `memo` keeps the item of a skill file parsed earlier (same object, same key). */
export function catalogItems(set: SkillSet, memo?: WeakMap<LoadedSkill, CatalogItem>): CatalogItem[] {
  const items: CatalogItem[] = []
  for (const [key, skill] of set.skills) {
    if (skill.meta.disableModelInvocation) continue
    const known = memo?.get(skill)
    if (known !== undefined && known.key === key) {
      items.push(known)
      continue
    }
    const line = catalogLine(key, skill, set.projectRoot)
    const item = { key, line, digest: contentDigest(line), bytes: Buffer.byteLength(line) + 1, nestedDir: skill.source.scope === 'nested' ? folderBase(skill.source.dir) : undefined }
    memo?.set(skill, item)
    items.push(item)
  }
  return items
}

/** The directory a nested `…/<family>/skills` folder belongs to. */
const folderBase = (skillsDir: string): string => skillsDir.replace(/[/\\][^/\\]+[/\\]skills$/, '')

