/**
 * The pre-step side of the plugin (seeds/002 decisions 1–8, with both rework rounds): for an
 * entering step, list the session's roots (re-checked on the disk), derive what the model was
 * told from the visible surface, examine every available root, compose one message and splice it
 * right after the claimed prompt. Nothing happens for a session that has no roots and was never
 * told about one, so its requests stay byte-identical to a composition without the plugin.
 *
 * Commit boundary: the message is built and cancellation checked before anything is committed;
 * only then are the touches of the snapshot taken at the start consumed (touches that arrived
 * during the I/O stay) and the directories of recorded files kept for the next examination. The
 * delivered state itself is the visible surface, so a step that an outer listener rejects or that
 * never lands delivers nothing and is offered again.
 */
import { dirname } from 'node:path'
import type { FileSystemPort, PreStepDecision, PreStepPayload, SessionEvent, SessionView, UserMessage, WorkspaceRootsListing } from '@dsh/contracts'
import { chainDirs, instructionMessage, isInsideRoot, VersionMemo } from '@dsh/workspace-context'
import type { ResolvedConfig } from './config.ts'
import { deriveDelivered, PLUGIN_NAME, type DeliveredState } from './delivered-state.ts'
import { composeBatch, type BatchRoot, type Revocation } from './instruction-batch.ts'
import { examineRoot, type RootFindings, type UnusableFile } from './root-pass.ts'
import type { RootsService } from './roots-service.ts'
import { unusableWarning, WARNINGS } from './texts.ts'
import { TouchTracker } from './touch-tracker.ts'

/** What the injector runs on. */
export interface InjectorHost {
  readonly config: ResolvedConfig
  /** The filesystem, read lazily (absent: the injector does nothing). */
  readonly fs: () => FileSystemPort | undefined
  readonly roots: RootsService
  /** Canonical `$DSH_HOME`. */
  readonly dshHome: string
  /** Wall clock in epoch milliseconds (version memo). */
  readonly now: () => number
  /** One line per warning. */
  readonly warn: (line: string) => void
}

/** Per-session memory: touches, the version memo, directories awaiting delivery, warnings given. */
interface SessionMemory {
  readonly touches: TouchTracker
  readonly memo: VersionMemo
  pending: ReadonlyMap<string, ReadonlySet<string>>
  readonly warned: Set<keyof typeof WARNINGS>
}

/**
 * Roots the model was told about that are not available any more, with why. A root whose path is
 * available again for another directory (added again after its link was re-pointed) was replaced;
 * one that is not listed while the registry cannot be read may only be hidden by that problem.
 */
function revocationsOf(delivered: DeliveredState, listing: WorkspaceRootsListing): Revocation[] {
  const availableRoots = listing.roots.filter((root) => root.state === 'available')
  const available = new Set(availableRoots.map((root) => root.recordedPath))
  const availablePaths = new Set(availableRoots.map((root) => root.path))
  const told = new Map<string, string>([...delivered.roots.values()].map((root) => [root.root, root.path]))
  for (const file of delivered.files.values()) if (!told.has(file.root)) told.set(file.root, file.root)
  return [...told]
    .filter(([root]) => !available.has(root))
    .map(([root, path]): Revocation => {
      if (availablePaths.has(path)) return { root, path, reason: 'replaced' }
      const state = listing.roots.find((listed) => listed.recordedPath === root)?.state
      if (state === undefined && listing.registryProblem !== undefined) return { root, path, reason: 'unreadable' }
      return { root, path, reason: state === undefined || state === 'available' ? 'removed' : state }
    })
}

/** Inserts `message` right after the last claimed message the decision enters (else first). */
function afterPrompt(decision: PreStepDecision & { kind: 'enter' }, claimed: readonly UserMessage[], message: UserMessage): PreStepDecision {
  const ids = new Set(claimed.map((item) => item.id))
  const at = decision.messages.findLastIndex((item) => ids.has(item.id)) + 1
  return { kind: 'enter', messages: decision.messages.toSpliced(at, 0, message) }
}

/** Delivers additional-root instructions at pre-step. */
export class InstructionInjector {
  readonly #host: InjectorHost
  readonly #sessions = new WeakMap<SessionView, SessionMemory>()
  /** Unusable files already reported (path and reason), once per plugin instance. */
  readonly #reported = new Set<string>()

  constructor(host: InjectorHost) {
    this.#host = host
  }

  #memory(session: SessionView): SessionMemory {
    let memory = this.#sessions.get(session)
    if (memory === undefined) {
      memory = { touches: new TouchTracker(), memo: new VersionMemo(this.#host.config.discovery.versionSettleMs), pending: new Map(), warned: new Set() }
      this.#sessions.set(session, memory)
    }
    return memory
  }

  #warnOnce(memory: SessionMemory, which: keyof typeof WARNINGS, limit: number): void {
    if (memory.warned.has(which)) return
    memory.warned.add(which)
    this.#host.warn(WARNINGS[which](limit))
  }

  /** `session/event`: pairs read/write/edit calls with their results. */
  observe(session: SessionView, event: SessionEvent): void {
    const memory = this.#memory(session)
    const { config } = this.#host
    memory.touches.observe(event, session.header.cwd, config, (which) => this.#warnOnce(memory, which, which === 'calls' ? config.maxPendingCalls : config.maxPendingTouches))
  }

  /** `agent/pre-step`, after the inner listeners decided. */
  async preStep(payload: PreStepPayload, decision: PreStepDecision): Promise<PreStepDecision> {
    const fs = this.#host.fs()
    if (decision.kind !== 'enter' || (payload.step === 1 && decision.messages.length === 0) || fs === undefined) return decision
    const { session } = payload.agent
    const memory = this.#memory(session)
    const listing = this.#host.roots.session(session).list()
    const available: BatchRoot[] = listing.roots.filter((root) => root.state === 'available')
    memory.touches.active = available.length > 0
    const delivered = deriveDelivered(session)
    const revocations = revocationsOf(delivered, listing)
    if (available.length === 0 && revocations.length === 0) {
      memory.touches.clear()
      memory.pending = new Map()
      return decision
    }
    const touched = memory.touches.snapshot()
    const findings = await this.#examine(fs, session, available, delivered, touched, memory, payload.signal)
    const batch = composeBatch({
      primary: listing.primary,
      available,
      delivered,
      revocations,
      findings,
      maxBytes: this.#host.config.maxBytes,
      nestedRoom: Math.max(0, this.#host.config.maxDeliveredScopes - delivered.files.size),
    })
    payload.signal.throwIfAborted()
    const message = batch.text === '' ? undefined : instructionMessage({ plugin: PLUGIN_NAME, text: batch.text, changes: batch.changes })
    payload.signal.throwIfAborted()
    memory.touches.consume(touched)
    memory.pending = batch.recordedDirs
    if (batch.capped) this.#warnOnce(memory, 'scopes', this.#host.config.maxDeliveredScopes)
    return message === undefined ? decision : afterPrompt(decision, payload.messages, message)
  }

  async #examine(fs: FileSystemPort, session: SessionView, available: readonly BatchRoot[], delivered: DeliveredState, touched: readonly string[], memory: SessionMemory, signal: AbortSignal): Promise<Map<string, RootFindings>> {
    const findings = new Map<string, RootFindings>()
    if (!(this.#host.config.maxBytes > 0) || !Number.isFinite(this.#host.config.maxBytes)) return findings
    const dirs = await this.#touchedDirs(fs, session.header.cwd, available, touched, signal)
    for (const root of available) {
      const extraDirs = new Set([...(dirs.get(root.recordedPath) ?? []), ...(memory.pending.get(root.recordedPath) ?? [])])
      const { config, dshHome, now } = this.#host
      const found = await examineRoot({ fs, discovery: config.discovery, dshHome, root, extraDirs, delivered, memo: memory.memo, now, signal })
      findings.set(root.recordedPath, found)
      for (const file of found.unusable) this.#report(file)
    }
    return findings
  }

  #report(file: UnusableFile): void {
    const key = `${file.path}\u0000${file.reason}`
    if (this.#reported.has(key)) return
    this.#reported.add(key)
    const line = unusableWarning(file.path, file.reason, file.detail)
    if (line !== undefined) this.#host.warn(line)
  }

  /** Per root, the parent of every touched path inside it with all its ancestors up to the root. */
  async #touchedDirs(fs: FileSystemPort, cwd: string, available: readonly BatchRoot[], touched: readonly string[], signal: AbortSignal): Promise<Map<string, Set<string>>> {
    const dirs = new Map<string, Set<string>>()
    for (const path of touched) {
      let canonical: string
      try {
        canonical = (await fs.resolve(path, { cwd, signal })).path
      } catch (error) {
        // A path that cannot be resolved now (a permission error) tells nothing about any root.
        if (signal.aborted) throw error
        continue
      }
      const root = available.find((candidate) => isInsideRoot(candidate.recordedPath, canonical) && candidate.recordedPath !== canonical)
      if (root === undefined) continue
      const set = dirs.get(root.recordedPath) ?? new Set<string>()
      for (const dir of chainDirs(root.recordedPath, dirname(canonical))) set.add(dir.rel)
      dirs.set(root.recordedPath, set)
    }
    return dirs
  }
}
