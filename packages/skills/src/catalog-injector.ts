/**
 * The pre-step side of the plugin: for an entering step, compare the skills the model may invoke
 * with what the visible surface already told it and, when something is new, changed or removed,
 * enter one durable catalog message after the prompt and the workspace instruction messages. The
 * delivered state is the surface itself, so a step an outer listener rejects delivers nothing and
 * is offered again, a resumed session repeats nothing, and a compaction re-arms the catalog.
 */
import { randomUUID } from 'node:crypto'
import type { PreStepDecision, SessionView, UserMessage } from '@dsh/contracts'
import { appendedDelta, catalogDelta, type CatalogDelta, type CatalogItem } from './catalog-delta.ts'
import { renderCatalog } from './catalog-text.ts'
import { catalogSource, type DeliveredEntry } from './delivered.ts'
import type { CurrentSkills, SessionSkills } from './session-skills.ts'

/** The catalog message for `items` against the session's delivered state, if any. */
export function catalogMessage(items: readonly CatalogItem[], delivered: ReadonlyMap<string, DeliveredEntry>, maxBytes: number): UserMessage | undefined {
  return messageOf(catalogDelta(items, delivered, maxBytes))
}

/** The same for `appended`, skills new to a catalog the model holds exactly, whose lines in effect take `listedBytes` (catalog-delta.ts `appendedDelta`). */
export function appendedMessage(appended: readonly CatalogItem[], delivered: ReadonlyMap<string, DeliveredEntry>, listedBytes: number, maxBytes: number): UserMessage | undefined {
  return messageOf(appendedDelta(appended, delivered, listedBytes, maxBytes))
}

function messageOf(delta: CatalogDelta): UserMessage | undefined {
  const text = renderCatalog(delta.parts)
  if (text === '') return undefined
  return { id: randomUUID(), role: 'user', content: [{ type: 'text', text }], source: catalogSource(delta.changes) }
}

/**
 * The catalog message of this step for `set`, if any, and the bookkeeping that lets the next step
 * skip work: the last step's message, folded alone since, brought the model to exactly its set
 * version (`settled`); nothing is said while the model holds the current version, and a version
 * that only appended skills to the one it holds costs those skills alone.
 */
export function nextCatalogMessage(skills: SessionSkills, set: CurrentSkills, session: SessionView, maxBytes: number): UserMessage | undefined {
  const delivered = skills.fold.current(session)
  const { fold } = skills
  if (skills.pending !== undefined && fold.revision === skills.pending.revision + 1 && fold.lastFoldedId === skills.pending.id) skills.settled = { version: skills.pending.version, revision: fold.revision }
  skills.pending = undefined
  const settled = skills.settled?.revision === fold.revision ? skills.settled.version : undefined
  if (settled === set.version) return undefined
  const message = settled !== undefined && set.appended?.from === settled && delivered.size > 0 ? appendedMessage(set.appended.items, delivered, fold.listedBytes, maxBytes) : catalogMessage(set.items, delivered, maxBytes)
  if (message === undefined) skills.settled = { version: set.version, revision: fold.revision }
  else skills.pending = { id: message.id, version: set.version, revision: fold.revision }
  return message
}

/** Inserts `messages` (in order) after the claimed prompt and any workspace instruction messages following it. */
export function afterInstructions(decision: PreStepDecision & { kind: 'enter' }, claimed: readonly UserMessage[], ...messages: UserMessage[]): PreStepDecision {
  const ids = new Set(claimed.map((item) => item.id))
  let at = 0
  decision.messages.forEach((item, index) => {
    if (ids.has(item.id) || item.source.kind === 'workspace-instructions') at = index + 1
  })
  return { kind: 'enter', messages: decision.messages.toSpliced(at, 0, ...messages) }
}

/** Resumed sessions: nested directories a delivered catalog names join again (those of newly folded messages only). */
export function rejoinNested(skills: SessionSkills, session: SessionView): void {
  skills.fold.current(session)
  for (const dir of skills.fold.takeNestedDirs()) skills.join(dir)
}
