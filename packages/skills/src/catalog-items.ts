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
    const item = catalogItem(key, skill, set.projectRoot, memo)
    if (item !== undefined) items.push(item)
  }
  return items
}

/** The item of one skill listed under `key`; `undefined` for a skill the model may not invoke. */
export function catalogItem(key: string, skill: LoadedSkill, projectRoot: string, memo?: WeakMap<LoadedSkill, CatalogItem>): CatalogItem | undefined {
  if (skill.meta.disableModelInvocation) return undefined
  const known = memo?.get(skill)
  if (known !== undefined && known.key === key) return known
  const line = catalogLine(key, skill, projectRoot)
  const item = { key, line, digest: contentDigest(line), bytes: Buffer.byteLength(line) + 1, nestedDir: skill.source.scope === 'nested' ? folderBase(skill.source.dir) : undefined }
  memo?.set(skill, item)
  return item
}

/** The directory a nested `…/<family>/skills` folder belongs to. */
const folderBase = (skillsDir: string): string => skillsDir.replace(/[/\\][^/\\]+[/\\]skills$/, '')
