/**
 * The sessions this server started or resumed, by id. Every API route that works on a session
 * looks it up here first, so the workspace a route touches is always that of a live session (its
 * header's cwd), never a path a client named. Only sessions of the server's own cwd can be resumed.
 */
import type { Agent, SessionSummary } from '@dsh/runtime'
import { isDshError } from '@dsh/runtime'
import { LiveSession } from './live-session.ts'
import type { StreamMessage, WebEnvironment } from './web-types.ts'

/** Receives the messages of the browser-wide stream; must not throw. */
export type StreamListener = (message: StreamMessage) => void

/** A row of the sessions list. */
export interface SessionRow {
  readonly id: string
  readonly title: string
  /** ISO time of the last change. */
  readonly updatedAt: string
  /** True when the server has it open. */
  readonly live: boolean
  readonly busy: boolean
  /** True while a permission question of the session waits for an answer. */
  readonly waiting: boolean
}

/** Why a resume was refused, in one line. */
export class ResumeRefused extends Error {
  override readonly name = 'ResumeRefused'
}

/** The live sessions of one server. */
export class LiveSessions {
  readonly #env: WebEnvironment
  readonly #live = new Map<string, LiveSession>()
  readonly #watchers = new Set<StreamListener>()

  constructor(env: WebEnvironment) {
    this.#env = env
  }

  /** The live session `id`, if the server has it open. */
  get(id: string): LiveSession | undefined {
    return this.#live.get(id)
  }

  /** Watches every live session's events (and new sessions); returns the unwatch function. */
  watch(listener: StreamListener): () => void {
    this.#watchers.add(listener)
    return () => this.#watchers.delete(listener)
  }

  /** Starts a new session in the server's cwd. */
  async start(): Promise<LiveSession> {
    return await this.#adopt(await this.#env.host.startAgent(this.#env.startOptions()))
  }

  /** Opens a stored session of the server's cwd (an open one is returned as it is). */
  async resume(idOrPrefix: string): Promise<LiveSession> {
    let header
    try {
      header = this.#env.host.sessions.header(idOrPrefix)
    } catch (error) {
      // An unknown id (or a file that cannot be read) is the client's bad input, not a server failure.
      if (isDshError(error)) throw new ResumeRefused(error.message)
      throw error
    }
    const open = this.#live.get(header.id)
    if (open !== undefined) return open
    if (header.cwd !== this.#env.cwd) throw new ResumeRefused(`session ${header.id} works in ${header.cwd}, not in ${this.#env.cwd}`)
    const agent = await this.#env.host.startAgent(this.#env.startOptions(header.id))
    // Two resumes of one id racing: the first one opened wins; the session lock refuses the second.
    return this.#live.get(header.id) ?? (await this.#adopt(agent))
  }

  /**
   * This cwd's stored sessions, newest first, plus live ones not written yet. A stored session with
   * nothing after its header (every start of dsh web and every "New session" makes one; most are
   * never prompted) is left out unless it is live: it has nothing to show.
   */
  rows(): SessionRow[] {
    const stored = this.#env.host.sessions.list().filter((row: SessionSummary) => row.header.cwd === this.#env.cwd && row.header.parentSession === undefined && (row.eventCount > 0 || this.#live.has(row.id)))
    const rows = stored.map((row): SessionRow => ({ id: row.id, title: row.title ?? '', updatedAt: row.updatedAt.toISOString(), live: this.#live.has(row.id), busy: this.#live.get(row.id)?.busy ?? false, waiting: this.#live.get(row.id)?.waiting ?? false }))
    const listed = new Set(rows.map((row) => row.id))
    const unlisted = [...this.#live.values()].filter((session) => !listed.has(session.id))
    return [...unlisted.map((session): SessionRow => ({ id: session.id, title: '', updatedAt: new Date().toISOString(), live: true, busy: session.busy, waiting: session.waiting })), ...rows]
  }

  /** Stops every live session. */
  async stopAll(): Promise<void> {
    const sessions = [...this.#live.values()]
    this.#live.clear()
    const sessionEnd = this.#env.sessionEnd
    await Promise.all(sessions.map((session) => session.stop(sessionEnd === undefined ? undefined : (agent) => sessionEnd(agent, 'other'))))
  }

  async #adopt(agent: Agent): Promise<LiveSession> {
    await this.#env.prepareAgent?.(agent)
    const id = agent.session.id
    const session = new LiveSession(agent, this.#env.approvals, (event, seq) => this.#broadcast({ kind: 'session', session: id, seq, event }))
    this.#live.set(session.id, session)
    this.#broadcast({ kind: 'sessions' })
    return session
  }

  #broadcast(message: StreamMessage): void {
    for (const watcher of this.#watchers) watcher(message)
  }
}
