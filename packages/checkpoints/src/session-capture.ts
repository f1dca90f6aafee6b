/**
 * Capture for one live session: the turn checkpoint being filled, one {@link RootTracker} per
 * writable root, and the byte budget. `write`/`edit` keep the target's pre-image before the tool
 * runs; shell tools (`bash`, `run_code`) re-sync the roots before the command (what changed
 * meanwhile was not this turn's doing) and after it (what changed now was). Every update of the
 * turn checkpoint is one line appended to the turn's log, written durably after the objects it names.
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { ByteBudget } from './byte-budget.ts'
import type { FileChange, TurnCheckpoint } from './checkpoint-types.ts'
import { CheckpointDirectory } from './checkpoint-directory.ts'
import { captureState } from './file-state.ts'
import { RootTracker } from './root-tracker.ts'
import type { TurnLogWriter } from './turn-log.ts'

/** Limits of a session's capture. */
export interface CaptureLimits {
  /** Largest file kept whole. */
  readonly maxFileBytes: number
  /** Bytes the session may store. */
  readonly maxBytes: number
}

const inside = (root: string, path: string): boolean => path === root || path.startsWith(`${root}/`)

function storedBytes(directory: string): number {
  let total = 0
  const pending = [directory]
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    let names: string[]
    try {
      names = readdirSync(current)
    } catch {
      // No objects directory yet: nothing stored.
      continue
    }
    for (const name of names) {
      const path = join(current, name)
      const stats = statSync(path)
      if (stats.isDirectory()) pending.push(path)
      else total += stats.size
    }
  }
  return total
}

/** The objects the pre-images of `changes` name. */
function* beforeBlobs(changes: Iterable<FileChange>): Iterable<string> {
  for (const change of changes) if (change.before.kind === 'file') yield change.before.blob
}

/** The checkpoint of the turn being captured. */
interface OpenTurn {
  readonly turn: number
  readonly roots: string[]
  readonly files: Map<string, FileChange>
  /** Paths whose record changed since the log's last line. */
  readonly dirty: Set<string>
  readonly log: TurnLogWriter
  /** Roots too big to track shell changes in. */
  readonly untracked: string[]
  /** Stored bytes when the turn began. */
  readonly startBytes: number
  overBudget: boolean
}

/** The capture state of one session. */
export class SessionCapture {
  readonly directory: CheckpointDirectory
  readonly budget: ByteBudget
  readonly #limits: CaptureLimits
  readonly #trackers = new Map<string, RootTracker>()
  #current: OpenTurn | undefined

  constructor(dshHome: string, sessionId: string, limits: CaptureLimits) {
    this.directory = new CheckpointDirectory(dshHome, sessionId)
    this.#limits = limits
    this.budget = new ByteBudget(limits.maxBytes, storedBytes(this.directory.objects.directory))
  }

  #turn(turn: number, roots: readonly string[]): OpenTurn {
    if (this.#current?.turn !== turn) {
      this.#current?.log.close()
      const existing = this.directory.turn(turn)
      const files = new Map(Object.entries(existing?.files ?? {}))
      // Entries read from an earlier version's whole document go into the log with its first line.
      const dirty = new Set(this.directory.turnLogExists(turn) ? [] : files.keys())
      this.#current = { turn, roots: [...roots], files, dirty, log: this.directory.turnLog(turn), untracked: [...(existing?.untrackedRoots ?? [])], startBytes: this.budget.used - (existing?.bytesAdded ?? 0), overBudget: existing?.overBudget ?? false }
    }
    for (const root of roots) if (!this.#current.roots.includes(root)) this.#current.roots.push(root)
    return this.#current
  }

  #tracker(root: string): RootTracker {
    let tracker = this.#trackers.get(root)
    if (tracker === undefined) {
      tracker = new RootTracker({ root, store: this.directory.objects, maxFileBytes: this.#limits.maxFileBytes, budget: this.budget })
      this.#trackers.set(root, tracker)
    }
    return tracker
  }

  /** Saves the current turn; returns true when the budget ran out during it for the first time. */
  #save(options: { readonly flush?: boolean } = {}): boolean {
    const current = this.#current
    if (current === undefined) return false
    const exceeded = this.budget.takeExceeded() && !current.overBudget
    if (exceeded) current.overBudget = true
    const checkpoint: TurnCheckpoint = {
      version: 1,
      turn: current.turn,
      roots: current.roots,
      files: Object.fromEntries([...current.dirty].flatMap((path) => {
        const change = current.files.get(path)
        return change === undefined ? [] : [[path, change] as const]
      })),
      bytesAdded: this.budget.used - current.startBytes,
      ...(current.overBudget ? { overBudget: true } : {}),
      ...(current.untracked.length === 0 ? {} : { untrackedRoots: current.untracked }),
    }
    // A durable record never names content that could still be lost: what a write left (stored
    // without a flush) is flushed here once a later change of the turn is kept with it as its before.
    if (options.flush !== false) this.directory.objects.flush(beforeBlobs(current.files.values()))
    current.log.append(checkpoint, options)
    current.dirty.clear()
    return exceeded
  }

  /** Before `write`/`edit` changes `path`: keeps its pre-image (once per turn). Returns true when the budget ran out. */
  beforeWrite(turn: number, roots: readonly string[], path: string, tool: string): boolean {
    // Only the session's roots are kept: a write elsewhere is refused by the filesystem anyway, and
    // nothing outside the roots (secrets included) is ever copied into the store.
    if (!roots.some((root) => inside(root, path))) return false
    const current = this.#turn(turn, roots)
    if (current.files.has(path)) return false
    const { state } = captureState(path, this.directory.objects, this.#limits.maxFileBytes, this.budget)
    current.files.set(path, { path, before: state, by: tool })
    current.dirty.add(path)
    return this.#save()
  }

  /** After `write`/`edit` changed `path`: records what it left there. */
  afterWrite(turn: number, roots: readonly string[], path: string): boolean {
    const current = this.#turn(turn, roots)
    const change = current.files.get(path)
    if (change === undefined) return false
    // What the write left needs no flush yet: it becomes a pre-image only when a later change of
    // the file is recorded, and that record flushes it first (see #save).
    const { state } = captureState(path, this.directory.objects, this.#limits.maxFileBytes, this.budget, { flush: false })
    current.files.set(path, { ...change, after: state })
    current.dirty.add(path)
    const root = roots.find((candidate) => inside(candidate, path))
    if (root !== undefined) this.#tracker(root).note(path, state)
    // What the write left only serves the "changed outside dsh" check; it need not reach the disk
    // before anything else does (a crash loses it, and the check then compares with the pre-image).
    return this.#save({ flush: false })
  }

  /** Stops watching the roots. */
  close(): void {
    this.#current?.log.close()
    for (const tracker of this.#trackers.values()) tracker.close()
  }

  /** Before a shell command: brings every root's known state up to date (those changes are not the turn's). */
  async beforeShell(roots: readonly string[]): Promise<void> {
    for (const root of roots) await this.#tracker(root).sync()
  }

  /** After a shell command: records every change it made in the roots. Returns true when the budget ran out. */
  async afterShell(turn: number, roots: readonly string[], tool: string): Promise<boolean> {
    const current = this.#turn(turn, roots)
    let changed = false
    for (const root of roots) {
      const tracker = this.#tracker(root)
      if (tracker.tooBig && !current.untracked.includes(root)) {
        current.untracked.push(root)
        changed = true
      }
      for (const change of await tracker.sync()) {
        changed = true
        const known = current.files.get(change.path)
        current.files.set(change.path, known === undefined ? { path: change.path, before: change.before, after: change.after, by: tool } : { ...known, after: change.after })
        current.dirty.add(change.path)
      }
    }
    return changed ? this.#save() : false
  }
}
