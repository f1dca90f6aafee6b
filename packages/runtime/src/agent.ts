/**
 * A live agent: one loop instance over one session. Owns the inbox, runs turns one at a time,
 * exposes `inject` / `steer` / `followup` and compaction. Resuming creates a new instance over the
 * persisted log and rebuilds the inbox from it.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { AgentHandle, ChatRequestBody, CompactOptions, ModelProvider, PromptEvent, SessionEvent, UserMessage } from '@dsh/contracts'
import type { ProgressListener } from './agent-events.ts'
import { ApprovalMemory } from './approval-memory.ts'
import { ToolVisibility } from './tool-visibility.ts'
import type { AutoCompactSettings } from './auto-compaction.ts'
import { compactSession } from './compaction.ts'
import { abortError, DshError, errorMessage } from './errors.ts'
import { dataOf } from './event-data.ts'
import { Inbox, recoverInbox } from './inbox.ts'
import { closeInterruptedPrompts, interruptedPromptLine } from './interrupted-prompts.ts'
import { closeInterruptedTurn } from './interrupted-turn.ts'
import { createUserMessage } from './message-factory.ts'
import { firePreCompact } from './pre-compact.ts'
import type { Session } from './session.ts'
import type { SystemPrompt } from './system-prompt.ts'
import type { AskPermission } from './tool-pipeline.ts'
import type { ToolRegistry } from './tool-registry.ts'
import { runTurn, type TurnResult } from './turn-runner.ts'
import { WireMemo } from './wire-memo.ts'
import type { FileSystemPort } from '@dsh/contracts'

/** Options of {@link Agent.prompt}. */
export interface PromptOptions {
  readonly signal?: AbortSignal
  /**
   * Plugin events (`owner/name`, JSON data) appended to the session right before the prompt is
   * queued, once the agent is known to be idle: what a front end learned while expanding the
   * prompt (a skill's `skills/grant` for the turn the prompt starts).
   */
  readonly events?: readonly PromptEvent[]
}

/** Construction options. */
export interface AgentOptions {
  readonly ctx: Context
  readonly session: Session
  readonly provider: ModelProvider
  readonly registry: ToolRegistry
  readonly systemPrompt: SystemPrompt
  readonly fs: FileSystemPort | undefined
  readonly log: (line: string) => void
  readonly maxSteps?: number | undefined
  /** Send the contents of the files a prompt `@`-mentions with it. */
  readonly attachMentions?: boolean | undefined
  readonly onRequest?: ((body: ChatRequestBody) => void) | undefined
  readonly askPermission?: AskPermission | undefined
  readonly autoCompact?: AutoCompactSettings | undefined
  /** Runs once when the agent is disposed (the host releases what it acquired for the session). */
  readonly onDispose?: (() => void) | undefined
}

/** A running agent. */
export class Agent {
  readonly session: Session
  readonly handle: AgentHandle
  readonly #options: AgentOptions
  readonly #inbox: Inbox
  readonly #listeners = new Set<ProgressListener>()
  /** "Allow always" approvals given in this session. */
  readonly approvals = new ApprovalMemory()
  /** Tools turned off for this session (`/mcp disable`): left out of its requests from the next step. */
  readonly toolVisibility = new ToolVisibility()
  #turn: number
  #firstOfInstance = true
  #running: Promise<TurnResult | undefined> | undefined
  #controller: AbortController | undefined
  #provider: ModelProvider
  #disposed = false
  /** Set by {@link stop}: no new turn starts by itself. */
  #stopping = false
  /** Lines already shown through `notice`. */
  readonly #notices = new Set<string>()
  readonly #wire = new WireMemo()
  /** A steer arrived that the running drain may not have seen yet. */
  #steered = false

  constructor(options: AgentOptions) {
    this.#options = options
    this.session = options.session
    this.#provider = options.provider
    const recovered = recoverInbox(options.session.events)
    closeInterruptedTurn(options.session)
    const { queues, interrupted } = closeInterruptedPrompts(options.session, recovered)
    for (const message of interrupted) options.log(`warning: ${interruptedPromptLine(message)}`)
    this.#inbox = new Inbox(options.session, queues)
    for (const item of queues.lost.toReversed()) void this.#inbox.prepend(item.target, item.message)
    this.#turn = lastTurn(options.session.events)
    this.handle = {
      id: options.session.id,
      cwd: options.session.header.cwd,
      session: options.session,
      inbox: this.#inbox,
      delegationDepth: options.session.header.delegationDepth,
      inject: (message) => this.#inbox.append('next-step', message),
      steer: async (message) => {
        await this.#inbox.append('next-step', message)
        this.#steered = true
        this.#wake()
      },
      followup: async (message) => {
        await this.#inbox.append('next-turn', message)
        this.#wake()
      },
      compact: (compactOptions) => Promise.resolve(this.compact(compactOptions)),
      recordPermission: (data) => {
        this.session.append('tool/permission', data)
      },
      recordEvent: (type, data) => {
        this.session.append(type, data)
      },
    }
  }

  /** The model provider in use. */
  get provider(): ModelProvider {
    return this.#provider
  }

  /** Switches the model provider for later steps. */
  setProvider(provider: ModelProvider): void {
    this.#provider = provider
  }

  /** True while a turn runs. */
  get busy(): boolean {
    return this.#running !== undefined
  }

  /** Subscribes to progress events; returns an unsubscribe function. */
  onProgress(listener: ProgressListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Queues a typed prompt for the next turn and runs turns until the inbox is drained. */
  async prompt(text: string, options: PromptOptions = {}): Promise<TurnResult> {
    if (this.#running !== undefined) throw new DshError('AGENT_BUSY', 'the agent is already running a turn; wait for it or cancel it first')
    for (const event of options.events ?? []) this.session.append(event.type, event.data)
    await this.#inbox.append('next-turn', createUserMessage({ text, source: { kind: 'user' } }))
    const result = await this.run(options)
    if (result === undefined) throw new Error('the prompt was queued but no turn ran')
    return result
  }

  /** Runs turns while next-turn items are queued; returns the last turn's result. */
  async run(options: { readonly signal?: AbortSignal } = {}): Promise<TurnResult | undefined> {
    if (this.#running !== undefined) return this.#running
    this.#running = this.#drain(options.signal)
    try {
      return await this.#running
    } finally {
      this.#running = undefined
      this.#controller = undefined
      // A steer that landed after the drain's last check (e.g. from a turn-stopping listener) still wakes the agent.
      if (this.#steered && !this.#disposed && !this.#stopping) this.#wake()
    }
  }

  /** Cancels the running turn, if any. */
  cancel(reason = 'cancelled by the user'): void {
    this.#controller?.abort(abortError(reason))
  }

  /**
   * Fires `agent/pre-compact` for a manual compaction (before its summary is asked for); resolves
   * with the reason a listener (a PreCompact hook) gave to stop it, or undefined to go on.
   */
  beforeCompact(options: { readonly instructions?: string; readonly signal?: AbortSignal } = {}): Promise<string | undefined> {
    const signal = options.signal ?? new AbortController().signal
    return firePreCompact(this.#options.ctx, { agent: this.handle, trigger: 'manual', instructions: options.instructions ?? '', signal }, this.#options.log)
  }

  /** Compacts visible history before the last turn. */
  compact(options: CompactOptions = {}): boolean {
    if (this.#running !== undefined) throw new DshError('AGENT_BUSY', 'cannot compact while a turn is running')
    return compactSession(this.session, options)
  }

  /**
   * Cancels the running turn, waits until it has closed itself in the log (the cancelled tool
   * results, `step/end`, `turn/end`: what a later resume reads) for at most `withinMs`, then
   * disposes. What hosts call when they end; {@link dispose} closes at once.
   */
  async stop(withinMs = STOP_WAIT_MS): Promise<void> {
    if (this.#disposed) return
    await this.windDown(withinMs)
    this.dispose()
  }

  /**
   * The first half of {@link stop}: cancels the running turn and waits until it has closed itself
   * in the log (at most `withinMs`); no turn starts by itself afterwards. The agent stays open, so
   * what runs before it is closed (SessionEnd hooks) can still record in its log.
   */
  async windDown(withinMs = STOP_WAIT_MS): Promise<void> {
    this.#stopping = true
    const running = this.#running
    this.cancel('agent disposed')
    if (running !== undefined) await settledWithin(running, withinMs)
  }

  /** Stops and closes the session file. */
  dispose(): void {
    if (this.#disposed) return
    this.#disposed = true
    this.cancel('agent disposed')
    this.session.setOnCommitted(undefined)
    this.session.close()
    this.#options.onDispose?.()
  }

  async #drain(external: AbortSignal | undefined): Promise<TurnResult | undefined> {
    let last: TurnResult | undefined
    while (this.#inbox.nextTurn.length > 0 || (this.#takeSteer(last === undefined) && this.#inbox.nextStep.length > 0)) {
      const controller = new AbortController()
      this.#controller = controller
      const signal = external === undefined ? controller.signal : AbortSignal.any([external, controller.signal])
      this.#turn += 1
      last = await runTurn(this.#turnDeps(), this.#turn, signal)
      if (last.reason === 'cancelled') {
        // A cancel ends the drain; a steer queued during the cancelled turn waits for the next prompt.
        this.#steered = false
        break
      }
    }
    return last
  }

  /** True for the first turn of a drain, or when a steer asked for another turn since the last check. */
  #takeSteer(firstTurn: boolean): boolean {
    const steered = this.#steered
    this.#steered = false
    return firstTurn || steered
  }

  #wake(): void {
    if (this.#running === undefined) {
      // A wake-up runs in the background; its failures are reported through the log sink.
      this.run().catch((error: unknown) => this.#options.log(`background turn failed: ${errorMessage(error)}`))
    }
  }

  #turnDeps() {
    const options = this.#options
    return {
      ctx: options.ctx,
      session: this.session,
      inbox: this.#inbox,
      handle: this.handle,
      provider: this.#provider,
      registry: options.registry,
      visibility: this.toolVisibility,
      wire: this.#wire,
      systemPrompt: options.systemPrompt,
      pipeline: { ctx: options.ctx, registry: options.registry, fs: options.fs, cwd: this.handle.cwd, agent: this.handle, askPermission: options.askPermission, approvals: this.approvals, visibility: this.toolVisibility, log: options.log },
      maxSteps: options.maxSteps ?? 200,
      attachMentions: options.attachMentions,
      autoCompact: options.autoCompact,
      log: options.log,
      notice: (line: string) => {
        if (this.#notices.has(line)) return
        this.#notices.add(line)
        options.log(line)
      },
      onRequest: options.onRequest,
      progress: (event: Parameters<ProgressListener>[0]) => {
        for (const listener of this.#listeners) {
          try {
            listener(event)
          } catch (error) {
            // A broken front end (renderer, ACP codec) must not break the turn: log it and go on.
            options.log(`progress listener failed on ${event.type}: ${errorMessage(error)}`)
          }
        }
      },
      takeFirstOfInstance: () => {
        const first = this.#firstOfInstance
        this.#firstOfInstance = false
        return first
      },
    }
  }
}

/** How long {@link Agent.stop} waits for a cancelled turn to close by default. */
const STOP_WAIT_MS = 5_000

/** Resolves when `running` settled (either way) or after `ms`, whichever comes first. */
async function settledWithin(running: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
  })
  // The turn's own failure is reported by whoever awaited it; here only its end matters.
  const ended = running.then(
    () => undefined,
    () => undefined,
  )
  try {
    await Promise.race([ended, deadline])
  } finally {
    clearTimeout(timer)
  }
}

function lastTurn(events: readonly SessionEvent[]): number {
  let turn = 0
  for (const event of events) turn = Math.max(turn, dataOf(event, 'turn/start')?.turn ?? 0)
  return turn
}

/** Creates a typed prompt message. */
export function userPrompt(text: string): UserMessage {
  return createUserMessage({ text, source: { kind: 'user' } })
}
