/**
 * Composes one pre-step message from what the passes found: revocations (a root that left), the
 * roots note (when a root is new or its alias changed), withdrawals (a delivered file that is
 * gone), then the instruction files under the shared budget, grouped by root, shallow first. The
 * typed changes record exactly what the text tells the model; budget decisions are recorded too
 * (a file cut or left out is `truncated`, so its notice is not repeated while it is unchanged and
 * it is sent whole as soon as it fits). Revocations, withdrawals and the note are never cut.
 */
import { dirname } from 'node:path'
import type { InstructionChange } from '@dsh/contracts'
import { escapeFrameText, frames } from '@dsh/workspace-context'
import { announcementDigest, filesOf, rootScope, type DeliveredFile, type DeliveredState } from './delivered-state.ts'
import type { FileOffer, RootFindings } from './root-pass.ts'
import { allocate, type BudgetDecision } from './shared-budget.ts'
import { INSTRUCTIONS_INTRO, replacedSection, revokedSection, rootHeading, rootsNote, type RevocationReason } from './texts.ts'

/** An available root, in listing order. */
export interface BatchRoot {
  readonly recordedPath: string
  readonly path: string
  readonly alias?: string | undefined
}

/** A root that must be revoked. */
export interface Revocation {
  readonly root: string
  readonly path: string
  /** How it left; `replaced`: its path was added again and now names another directory. */
  readonly reason: RevocationReason | 'replaced'
}

/** Inputs of {@link composeBatch}. */
export interface BatchInput {
  /** Canonical primary root (named by the note). */
  readonly primary: string
  readonly available: readonly BatchRoot[]
  readonly delivered: DeliveredState
  readonly revocations: readonly Revocation[]
  /** Findings per available root (absent: not examined). */
  readonly findings: ReadonlyMap<string, RootFindings>
  readonly maxBytes: number
  /** How many new nested files may still be delivered in this session. */
  readonly nestedRoom: number
}

/** The composed batch. */
export interface Batch {
  /** Framed text; `''` when there is nothing to say. */
  readonly text: string
  readonly changes: readonly InstructionChange[]
  /** Per root, the directories of files this batch records (they stay examined until it lands). */
  readonly recordedDirs: ReadonlyMap<string, ReadonlySet<string>>
  /** A new nested file was held back by the delivered-files cap. */
  readonly capped: boolean
}

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8')

function revocationPart(revocation: Revocation, delivered: DeliveredState): { text: string; changes: InstructionChange[] } {
  const { root, path } = revocation
  const files = filesOf(delivered, root).map((file): InstructionChange => ({ action: 'remove', scope: file.scope, path: file.path, root }))
  const text = revocation.reason === 'replaced' ? replacedSection(path) : revokedSection(path, revocation.reason)
  return { text, changes: [{ action: 'remove', scope: rootScope(root), path, root }, ...files] }
}

function notePart(input: BatchInput): { text: string; changes: InstructionChange[] } | undefined {
  const changes = input.available.flatMap((root): InstructionChange[] => {
    const digest = announcementDigest(root.path, root.alias)
    const before = input.delivered.roots.get(root.recordedPath)
    if (before?.digest === digest) return []
    return [{ action: before === undefined ? 'set' : 'replace', scope: rootScope(root.recordedPath), path: root.path, root: root.recordedPath, digest }]
  })
  return changes.length === 0 ? undefined : { text: rootsNote(input.primary, input.available), changes }
}

const withdrawal = (file: DeliveredFile): InstructionChange => ({ action: 'remove', scope: file.scope, path: file.path, root: file.root })

function headingOf(offer: FileOffer): string {
  if (offer.kind === 'replace') return frames.updatedSection(offer.path)
  return frames.additionalSection(offer.path, dirname(offer.path))
}

interface Offered {
  readonly root: BatchRoot
  readonly offer: FileOffer
  readonly heading: string
}

/** Offers in priority order, with new nested files beyond the cap held back. */
function offered(input: BatchInput): { list: Offered[]; capped: boolean } {
  let room = input.nestedRoom
  let capped = false
  const list: Offered[] = []
  for (const root of input.available) {
    for (const offer of input.findings.get(root.recordedPath)?.offers ?? []) {
      if (offer.kind === 'set' && offer.dir !== '.') {
        if (room <= 0) {
          capped = true
          continue
        }
        room -= 1
      }
      list.push({ root, offer, heading: escapeFrameText(headingOf(offer)) })
    }
  }
  return { list, capped }
}

function fileChange(item: Offered, decision: BudgetDecision): InstructionChange | undefined {
  const { offer, root } = item
  if (decision.kind === 'left-out' && offer.kind === 'retry') return undefined
  const action = offer.kind === 'set' ? 'set' : 'replace'
  return { action, scope: offer.scope, path: offer.path, root: root.recordedPath, digest: offer.digest, ...(decision.kind === 'whole' ? {} : { truncated: true }) }
}

/** Composes the batch. Every part is escaped as it is added, so nothing can close the frame. */
export function composeBatch(input: BatchInput): Batch {
  const parts: string[] = []
  const say = (text: string): void => {
    parts.push(escapeFrameText(text))
  }
  const changes: InstructionChange[] = []
  for (const revocation of input.revocations) {
    const part = revocationPart(revocation, input.delivered)
    say(part.text)
    changes.push(...part.changes)
  }
  const note = notePart(input)
  if (note !== undefined) {
    say(note.text)
    changes.push(...note.changes)
  }
  for (const root of input.available) {
    for (const file of input.findings.get(root.recordedPath)?.withdrawals ?? []) {
      say(frames.removedSection(file.path))
      changes.push(withdrawal(file))
    }
  }
  const { list, capped } = offered(input)
  const decisions = allocate(
    list.map((item) => ({ heading: item.heading, content: item.offer.content, wholeOnly: item.offer.kind === 'retry' })),
    input.maxBytes,
    escapeFrameText,
  )
  const omitted: { path: string; bytes: number; outdates?: string }[] = []
  let truncated: { path: string; bytes: number; kept: number } | undefined
  const groups = new Map<BatchRoot, string[]>()
  const recordedDirs = new Map<string, Set<string>>()
  list.forEach((item, index) => {
    const decision = decisions[index] ?? { kind: 'left-out' }
    const change = fileChange(item, decision)
    if (change === undefined) return
    changes.push(change)
    const dirs = recordedDirs.get(item.root.recordedPath) ?? new Set<string>()
    recordedDirs.set(item.root.recordedPath, dirs.add(item.offer.dir))
    if (decision.kind === 'left-out') {
      omitted.push({ path: item.offer.path, bytes: bytes(item.offer.content), ...(item.offer.kind === 'replace' ? { outdates: item.offer.path } : {}) })
      return
    }
    const content = decision.kind === 'cut' ? decision.content : item.offer.content
    if (decision.kind === 'cut') truncated = { path: item.offer.path, bytes: bytes(item.offer.content), kept: bytes(content) }
    groups.set(item.root, [...(groups.get(item.root) ?? []), `${item.heading}\n\n${escapeFrameText(content)}`])
  })
  if (omitted.length > 0 || truncated !== undefined) say(frames.budgetNotice({ maxBytes: input.maxBytes, omitted, truncated }))
  if (groups.size > 0) say(INSTRUCTIONS_INTRO)
  for (const [root, sections] of groups) {
    say(rootHeading(root))
    parts.push(...sections)
  }
  return { text: changes.length === 0 ? '' : frames.framed(parts.join('\n\n')), changes, recordedDirs, capped }
}
