/**
 * One session the web host started or resumed: its agent, the pages listening to it (SSE
 * subscribers) and its running turn. A prompt runs in the background (the page follows it on the
 * stream); a second prompt while one runs is refused, cancel aborts the running turn. Approvals of
 * its calls are shown to every subscriber and re-sent to a page that subscribes later. With an
 * idle notice, a session left waiting after a turn for its time says so once (live-session's
 * timer is unref'd: it never keeps the server alive).
 */
import type { PromptEvent } from '@dsh/contracts'
import type { Agent } from '@dsh/runtime'
import { errorMessage } from '@dsh/runtime'
import type { ApprovalBridge } from './approval-bridge.ts'
import type { WebEnvironment, WebEvent } from './web-types.ts'

/** Receives a session's events; must not throw. */
export type WebListener = (event: WebEvent) => void

/** Receives every event of a session with its number (1, 2, …; see {@link LiveSession.seq}); must not throw. */
export type SessionTap = (event: WebEvent, seq: number) => void

/** A live session. */
export class LiveSession {
  readonly agent: Agent
  readonly #listeners = new Set<WebListener>()
  readonly #approvals: ApprovalBridge
  readonly #detach: () => void
  readonly #unsubscribe: () => void
  readonly #tap: SessionTap | undefined
  readonly #idle: WebEnvironment['idle']
  #running: AbortController | undefined
  #idleTimer: ReturnType<typeof setTimeout> | undefined
  #seq = 0

  constructor(agent: Agent, approvals: ApprovalBridge, options: { readonly tap?: SessionTap; readonly idle?: WebEnvironment['idle'] } = {}) {
    this.agent = agent
    this.#approvals = approvals
    this.#tap = options.tap
    this.#idle = options.idle
    this.#unsubscribe = agent.onProgress((event) => this.#emit({ kind: 'progress', event }))
    this.#detach = approvals.attach(agent.session.id, {
      show: (approval) => this.#emit({ kind: 'approval', approval }),
      withdraw: (id) => this.#emit({ kind: 'approval-done', id }),
    })
  }

  get id(): string {
    return this.agent.session.id
  }

  /**
   * Number of the last event emitted (0 before the first). The history answer carries it, so a page
   * that reads the history while the browser-wide stream runs applies only the events after it.
   */
  get seq(): number {
    return this.#seq
  }

  /** True while a permission question of this session waits for an answer. */
  get waiting(): boolean {
    return this.#approvals.pending(this.id).length > 0
  }

  /** True while a turn runs. */
  get busy(): boolean {
    return this.#running !== undefined
  }

  /** Subscribes; the listener first gets the busy state and the questions waiting now. */
  subscribe(listener: WebListener): () => void {
    this.#listeners.add(listener)
    listener({ kind: 'busy', busy: this.busy })
    for (const approval of this.#approvals.pending(this.id)) listener({ kind: 'approval', approval })
    return () => this.#listeners.delete(listener)
  }

  /** Starts a turn with `text` (recording `events` just before it); false when one already runs. */
  prompt(text: string, events: readonly PromptEvent[] = []): boolean {
    if (this.#running !== undefined) return false
    clearTimeout(this.#idleTimer)
    const controller = new AbortController()
    this.#running = controller
    this.#emit({ kind: 'prompt', text })
    this.#emit({ kind: 'busy', busy: true })
    this.agent
      .prompt(text, { signal: controller.signal, events })
      .then((result) => {
        if (result.reason === 'error') this.#emit({ kind: 'error', message: result.error ?? 'the turn failed' })
      })
      .catch((error: unknown) => {
        // A turn that throws (model unreachable, script exhausted) is shown on the page; the session stays open.
        this.#emit({ kind: 'error', message: errorMessage(error) })
      })
      .finally(() => {
        this.#running = undefined
        this.#emit({ kind: 'busy', busy: false })
        this.#waitForPerson()
      })
    return true
  }

  /** Tells every page the session's permission mode is now `mode`. */
  modeSwitched(mode: string): void {
    this.#emit({ kind: 'mode', mode })
  }

  /** Cancels the running turn; false when none runs. */
  cancel(): boolean {
    if (this.#running === undefined) return false
    this.#running.abort()
    this.agent.cancel()
    return true
  }

  /** Ends the session: cancels its turn, waits for it to close itself, runs `beforeClose` (SessionEnd hooks), closes the agent. */
  async stop(beforeClose?: (agent: Agent) => Promise<void>): Promise<void> {
    clearTimeout(this.#idleTimer)
    this.#detach()
    this.#unsubscribe()
    await this.agent.windDown()
    await beforeClose?.(this.agent)
    await this.agent.stop()
    this.#listeners.clear()
  }

  /** Arms the idle notice after a turn (none configured: nothing). */
  #waitForPerson(): void {
    const idle = this.#idle
    if (idle === undefined) return
    clearTimeout(this.#idleTimer)
    this.#idleTimer = setTimeout(() => idle.notice(this.agent), idle.afterMs)
    this.#idleTimer.unref()
  }

  #emit(event: WebEvent): void {
    this.#seq += 1
    this.#tap?.(event, this.#seq)
    for (const listener of this.#listeners) listener(event)
  }
}
