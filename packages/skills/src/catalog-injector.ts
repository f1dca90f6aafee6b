/**
 * The pre-step side of the plugin: for an entering step, compare the skills the model may invoke
 * with what the visible surface already told it and, when something is new, changed or removed,
 * enter one durable catalog message after the prompt and the workspace instruction messages. The
 * delivered state is the surface itself, so a step an outer listener rejects delivers nothing and
 * is offered again, a resumed session repeats nothing, and a compaction re-arms the catalog.
 */
import { randomUUID } from 'node:crypto'
import type { PreStepDecision, PreStepPayload, UserMessage } from '@dsh/contracts'
import { contentDigest } from '@dsh/workspace-context'
import { catalogDelta, type CatalogItem } from './catalog-delta.ts'
import { catalogLine, renderCatalog } from './catalog-text.ts'
import { catalogSource } from './delivered.ts'
import type { SessionSkills } from './session-skills.ts'
import type { SkillSet } from './types.ts'

/** The catalog items of `set`: every loaded skill the model may invoke, in precedence order. */
export function catalogItems(set: SkillSet): CatalogItem[] {
  const items: CatalogItem[] = []
  for (const [key, skill] of set.skills) {
    if (skill.meta.disableModelInvocation) continue
    const line = catalogLine(key, skill, set.projectRoot)
    items.push({ key, line, digest: contentDigest(line), bytes: Buffer.byteLength(line) + 1, nestedDir: skill.source.scope === 'nested' ? folderBase(skill.source.dir) : undefined })
  }
  return items
}

/** The directory a nested `…/<family>/skills` folder belongs to. */
const folderBase = (skillsDir: string): string => skillsDir.replace(/[/\\][^/\\]+[/\\]skills$/, '')

/** The catalog message for `items` against the session's delivered state, if any. */
export function catalogMessage(items: readonly CatalogItem[], skills: SessionSkills, payload: PreStepPayload, maxBytes: number): UserMessage | undefined {
  const delivered = skills.fold.current(payload.agent.session)
  const delta = catalogDelta(items, delivered, maxBytes)
  const text = renderCatalog(delta.parts)
  if (text === '') return undefined
  return { id: randomUUID(), role: 'user', content: [{ type: 'text', text }], source: catalogSource(delta.changes) }
}

/** Inserts `message` after the claimed prompt and any workspace instruction messages following it. */
export function afterInstructions(decision: PreStepDecision & { kind: 'enter' }, claimed: readonly UserMessage[], message: UserMessage): PreStepDecision {
  const ids = new Set(claimed.map((item) => item.id))
  let at = 0
  decision.messages.forEach((item, index) => {
    if (ids.has(item.id) || item.source.kind === 'workspace-instructions') at = index + 1
  })
  return { kind: 'enter', messages: decision.messages.toSpliced(at, 0, message) }
}

/** Resumed sessions: nested directories a delivered catalog names join again. */
export function rejoinNested(skills: SessionSkills, payload: PreStepPayload): void {
  for (const entry of skills.fold.current(payload.agent.session).values()) if (entry.nestedDir !== undefined) skills.join(entry.nestedDir)
}
