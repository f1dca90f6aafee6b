/**
 * The engine behind the plugin's hooks: per-instance and per-session state (version memo, step
 * record), the pending window, and the entry points (`preStep`, `touch`, `starting`,
 * `settle`/`observe`). Hook wiring lives in `plugin.ts`; this module holds no plugin-host specifics.
 */
import type { AgentHandle, FileSystemPort, PreStepDecision, PreStepPayload, SessionEvent, SessionView, ToolExecution, ToolFinalOutcome, TouchedPath, UserMessage } from '@dsh/contracts'
import type { ResolvedConfig } from './config.ts'
import { deliverInBatch, queueForLater } from './delivery.ts'
import type { ExaminedSettings } from './examined-settings.ts'
import { createInstance, type InstanceState } from './instance.ts'
import { mentionedPaths } from './mentions.ts'
import { runPass, type PassMode } from './pass.ts'
import { PendingWindow } from './pending-window.ts'
import type { ReadDelivery } from './reconcile.ts'
import { SessionLock } from './session-lock.ts'
import { ShellSteps } from './shell-steps.ts'
import { StepShare, type SharedExaminations } from './step-share.ts'
import { SurfaceFold } from './surface-fold.ts'
import type { UnavailableReason } from './types.ts'
import { VersionMemo } from './version-memo.ts'
import { deriveVisibleState, hasLoggedBaseline, isInstructionMessage } from './visible-state.ts'

/** Host services the engine uses. */
export interface EngineHost {
  readonly config: ResolvedConfig
  readonly plugin: string
  /** The filesystem provider, read lazily (absent: the plugin is a no-op). */
  readonly fs: () => FileSystemPort | undefined
  /** Wall clock in epoch milliseconds, comparable with the provider's `changedAtMs` (`Date.now`). */
  readonly now: () => number
  /** Extra canonical roots a followed link may end in (the session's additional workspace roots). */
  readonly extraTrustedRoots: (session: SessionView) => readonly string[]
  /** Diagnostics (a candidate that exists but cannot be used is reported once per reason). */
  readonly warn: (message: string) => void
  /** Settings each session was last examined under (owned by the plugin instance, survives remounts). */
  readonly examined: ExaminedSettings
}

/** Diagnostic wording per unavailable reason; a reason not listed is not reported. */
const REASONS: Readonly<Partial<Record<UnavailableReason, string>>> = {
  'not-utf8': 'is not UTF-8 text',
  binary: 'contains NUL bytes',
  'too-large': 'is larger than maxSourceBytes',
  'escaping-link': 'links outside the trusted roots',
  'symlink-refused': 'is a symlink and followSymlinks is false',
  'probe-failed': 'could not be examined',
  'read-failed': 'could not be read',
  'special-file-at-open': 'turned out to be a special file when opened',
}

/** State and behaviour of one mounted plugin. */
export class Engine {
  readonly #host: EngineHost
  readonly #instances = new WeakMap<AgentHandle, InstanceState>()
  readonly #memos = new WeakMap<SessionView, VersionMemo>()
  readonly #shares = new WeakMap<SessionView, StepShare>()
  readonly #folds = new WeakMap<SessionView, SurfaceFold>()
  readonly #lock = new SessionLock()
  readonly pending = new PendingWindow()
  readonly #shellSteps = new ShellSteps()
  readonly #reported = new Set<string>()

  constructor(host: EngineHost) {
    this.#host = host
  }

  #memo(session: SessionView): VersionMemo {
    let memo = this.#memos.get(session)
    if (memo === undefined) {
      memo = new VersionMemo(this.#host.config.versionSettleMs)
      this.#memos.set(session, memo)
    }
    return memo
  }

  #fold(session: SessionView): SurfaceFold {
    let fold = this.#folds.get(session)
    if (fold === undefined) {
      fold = new SurfaceFold(this.#host.plugin)
      this.#folds.set(session, fold)
    }
    return fold
  }

  #share(session: SessionView): StepShare {
    let share = this.#shares.get(session)
    if (share === undefined) {
      share = new StepShare()
      this.#shares.set(session, share)
    }
    return share
  }

  async #instance(fs: FileSystemPort, agent: AgentHandle, signal: AbortSignal | undefined): Promise<InstanceState> {
    let instance = this.#instances.get(agent)
    if (instance === undefined) {
      instance = await createInstance(fs, this.#host.config, agent.cwd, () => this.#host.extraTrustedRoots(agent.session), signal)
      this.#instances.set(agent, instance)
    }
    return instance
  }

  async #pass(fs: FileSystemPort, agent: AgentHandle, mode: PassMode, overlays: readonly UserMessage[], touched: readonly string[], signal: AbortSignal | undefined, touch: { shared?: SharedExaminations | undefined; read?: ReadDelivery | undefined } = {}): Promise<UserMessage[]> {
    const instance = await this.#instance(fs, agent, signal)
    const lastExamined = this.#host.examined.under(agent.session.header.id)
    return runPass(
      { config: this.#host.config, plugin: this.#host.plugin, fs, session: agent.session, instance, memo: this.#memo(agent.session), fold: this.#fold(agent.session), now: this.#host.now, ...touch, overlays, examinedUnder: lastExamined, signal, onUnavailable: (path, reason, detail) => this.#report(path, reason, detail) },
      mode,
      touched,
    )
  }

  #report(path: string, reason: UnavailableReason, detail: string | undefined): void {
    const why = REASONS[reason]
    const key = `${path}\u0000${reason}`
    if (why === undefined || this.#reported.has(key)) return
    this.#reported.add(key)
    const transient = reason === 'probe-failed' || reason === 'read-failed'
    this.#host.warn(`instruction file ${path} ${why}${transient && detail !== undefined ? ` (${detail})` : ''}; it is not loaded`)
  }

  /** Post-processes a pre-step decision: delivers the baseline or a restoration, or queues it. */
  async preStep(payload: PreStepPayload, decision: PreStepDecision): Promise<PreStepDecision> {
    const fs = this.#host.fs()
    if (!this.#host.config.enabled || fs === undefined) return decision
    const { agent, signal } = payload
    return this.#lock.run(agent.session.header.id, async () => {
      const entering = decision.kind === 'enter' && !(payload.step === 1 && decision.messages.length === 0)
      const instance = this.#instances.get(agent)
      const pendingOverlays = this.pending.overlays(agent.session.header.id)
      if (instance === undefined || !instance.initialised) {
        const entered = decision.kind === 'enter' && entering ? decision.messages.filter((m) => isInstructionMessage(m, this.#host.plugin)) : []
        const messages = await this.#pass(fs, agent, 'initial', [...pendingOverlays, ...entered], [], signal)
        signal.throwIfAborted()
        const fresh = this.#instances.get(agent)
        if (fresh !== undefined) fresh.checkedGeneration = agent.session.replaceGeneration
        if (!entering || decision.kind !== 'enter') {
          // Queued messages are recomposed by the next first pass (the queue keeps only the latest),
          // which must still act on the settings change: only a pass with nothing to say counts.
          if (fresh !== undefined && messages.length === 0) this.#host.examined.record(agent.session.header.id, fresh.identity)
          await queueForLater(agent, messages, this.#host.plugin)
          return decision
        }
        if (fresh !== undefined) {
          fresh.initialised = true
          this.#host.examined.record(agent.session.header.id, fresh.identity)
        }
        // The first pass examined every loaded scope: a shell step before it is covered.
        this.#shellSteps.clear(agent.session)
        const mentioned = await this.#mentioned(fs, agent, payload, [...pendingOverlays, ...decision.messages, ...messages])
        return deliverInBatch(decision, payload.messages, [...messages, ...mentioned])
      }
      if (!entering || decision.kind !== 'enter') return decision
      const restored = await this.#restore(fs, agent, instance, [...pendingOverlays, ...decision.messages], signal)
      const rechecked = this.#shellSteps.pending(agent.session) ? await this.#pass(fs, agent, 'recheck', [...pendingOverlays, ...decision.messages, ...restored], [], signal) : []
      signal.throwIfAborted()
      // Only now: an aborted or failed re-check is retried at the next entering pre-step.
      this.#shellSteps.clear(agent.session)
      const mentioned = await this.#mentioned(fs, agent, payload, [...pendingOverlays, ...decision.messages, ...restored, ...rechecked])
      return deliverInBatch(decision, payload.messages, [...restored, ...rechecked, ...mentioned])
    })
  }

  /**
   * The first step of a turn: the directories of what the person `@`-mentioned in the prompt join
   * as a touch would join them (mentions.ts); `overlays` are the messages entering with it.
   */
  async #mentioned(fs: FileSystemPort, agent: AgentHandle, payload: PreStepPayload, overlays: readonly UserMessage[]): Promise<UserMessage[]> {
    if (payload.step !== 1) return []
    const paths = await mentionedPaths(fs, agent.session.header.cwd, payload.messages, payload.signal)
    if (paths.length === 0) return []
    const messages = await this.#pass(fs, agent, 'touch', overlays, paths, payload.signal)
    payload.signal.throwIfAborted()
    return messages
  }

  /** A later entering pre-step after compaction shadowed the baseline: one restored baseline (or nothing). */
  async #restore(fs: FileSystemPort, agent: AgentHandle, instance: InstanceState, overlays: readonly UserMessage[], signal: AbortSignal): Promise<UserMessage[]> {
    const generation = agent.session.replaceGeneration
    if (instance.checkedGeneration === generation) return []
    const state = deriveVisibleState(agent.session, this.#host.plugin, overlays, this.#fold(agent.session))
    if (state.baseline !== undefined || !hasLoggedBaseline(agent.session, this.#host.plugin)) {
      instance.checkedGeneration = generation
      return []
    }
    const messages = await this.#pass(fs, agent, 'restore', overlays, [], signal)
    signal.throwIfAborted()
    // Only now: an aborted or failed restoration is retried at the next entering pre-step.
    instance.checkedGeneration = generation
    return messages
  }

  /**
   * Reconciles after `execution` of `agent` touched `touches` successfully; returns the change
   * batch to attach, if any, already staged as provisional (inside the lock, so the next pass
   * sees it). Read-only touches share the step's examinations (`step-share.ts`).
   */
  async touch(agent: AgentHandle, execution: ToolExecution, touches: readonly TouchedPath[], read?: ReadDelivery): Promise<UserMessage | undefined> {
    const fs = this.#host.fs()
    if (!this.#host.config.enabled || fs === undefined || touches.length === 0) return undefined
    const sessionId = agent.session.header.id
    return this.#lock.run(sessionId, async () => {
      // Decided inside the lock, right before the pass: a tool that started meanwhile counts.
      const shared = this.#share(agent.session).forTouch(agent.session, execution, touches)
      const paths = touches.map((touch) => touch.path)
      const [message] = await this.#pass(fs, agent, 'touch', this.pending.overlays(sessionId), paths, execution.signal, { shared, read })
      if (message !== undefined) this.pending.stage(sessionId, execution.token, message)
      return message
    })
  }

  /** A tool is about to run (`tools/pre-execute`). */
  starting(execution: ToolExecution): void {
    const session = execution.agent?.session
    if (this.#host.config.enabled && session !== undefined) this.#share(session).starting(execution)
  }

  /** Applies a final tool outcome to the pending window and the step record. */
  settle(execution: ToolExecution, outcome: ToolFinalOutcome): void {
    const session = execution.agent?.session
    if (session !== undefined) this.#shares.get(session)?.finished(execution)
    if (this.#host.config.enabled) this.#shellSteps.settled(execution, outcome)
    this.pending.settle(execution, outcome, session)
  }

  /** Follows committed session events. */
  observe(session: SessionView, event: SessionEvent): void {
    if (event.type === 'step/end' || event.type === 'turn/end') this.#shares.get(session)?.stepEnded()
    this.pending.observe(session, event)
  }

  /** Drops in-memory state (plugin disposal). */
  dispose(): void {
    this.pending.clear()
  }
}
