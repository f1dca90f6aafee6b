/**
 * The sessions this server started or resumed, by id. Every API route that works on a session
 * looks it up here first, so the workspace a route touches is always that of a live session (its
 * header's cwd), never a path a client named. Only sessions of the server's own cwd can be resumed
 * or closed. Closing marks the session closed (closed-sessions.ts; its log stays as it is) and, when
 * it is live, stops it; opening a closed session again removes the mark.
 */
import type { SessionHeader } from '@dsh/contracts'
import type { Agent, SessionSummary } from '@dsh/runtime'
import { isDshError } from '@dsh/runtime'
import { ClosedSessions } from './closed-sessions.ts'
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

/** The sessions list: the open (not closed) sessions, and the closed ones that have something to show. */
export interface SessionRows {
  readonly sessions: SessionRow[]
  readonly closed: SessionRow[]
}

/** What {@link LiveSessions.close} did: `unknown` (no top-level session of this cwd has that id), `running` (live and running a turn or waiting for an answer, and `stopTurn` was not given), `closed`. */
export type CloseOutcome = 'unknown' | 'running' | 'closed'

/** Why a resume was refused, in one line. */
export class ResumeRefused extends Error {
  override readonly name = 'ResumeRefused'
}

/** The live sessions of one server. */
export class LiveSessions {
  readonly #env: WebEnvironment
  readonly #live = new Map<string, LiveSession>()
  readonly #watchers = new Set<StreamListener>()
  readonly #closed: ClosedSessions
  /** Sessions being stopped by a close: a resume of one waits until its lock is free. */
  readonly #closing = new Map<string, Promise<void>>()

  constructor(env: WebEnvironment) {
    this.#env = env
    this.#closed = new ClosedSessions({ dshHome: env.homes.dshHome, warn: env.log })
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
    await this.#closing.get(header.id)
    await this.#closed.reopen(header.id)
    const agent = await this.#env.host.startAgent(this.#env.startOptions(header.id))
    // Two resumes of one id racing: the first one opened wins; the session lock refuses the second.
    return this.#live.get(header.id) ?? (await this.#adopt(agent))
  }

  /**
   * This cwd's stored sessions, newest first, plus live ones not written yet; the closed ones apart.
   * A stored session with nothing after its header (every start of dsh web and every "New session"
   * makes one; most are never prompted) is left out unless it is live: it has nothing to show.
   */
  rows(): SessionRows {
    const closed = this.#closed.read()
    const stored = this.#env.host.sessions.list().filter((row: SessionSummary) => row.header.cwd === this.#env.cwd && row.header.parentSession === undefined && (row.eventCount > 0 || this.#live.has(row.id)))
    const rows = stored.map((row): SessionRow => ({ id: row.id, title: row.title ?? '', updatedAt: row.updatedAt.toISOString(), live: this.#live.has(row.id), busy: this.#live.get(row.id)?.busy ?? false, waiting: this.#live.get(row.id)?.waiting ?? false }))
    const listed = new Set(rows.map((row) => row.id))
    const unlisted = [...this.#live.values()].filter((session) => !listed.has(session.id))
    const all = [...unlisted.map((session): SessionRow => ({ id: session.id, title: '', updatedAt: new Date().toISOString(), live: true, busy: session.busy, waiting: session.waiting })), ...rows]
    // A live session is open whatever the file says (another dsh web may have closed it meanwhile).
    const isClosed = (row: SessionRow): boolean => !row.live && closed.has(row.id)
    return { sessions: all.filter((row) => !isClosed(row)), closed: all.filter(isClosed) }
  }

  /**
   * The newest live session that is not being closed, preferring `first` (the page's start: the
   * session opened at start-up while it is open); undefined when none is open.
   */
  current(first: string): string | undefined {
    if (this.#live.has(first)) return first
    return this.rows().sessions.find((row) => row.live)?.id
  }

  /**
   * Closes the session `id` of this cwd: marks it closed (its log is not touched) and, when it is
   * live, stops it (its running turn cancelled and closed in the log, a waiting question rejected,
   * SessionEnd hooks, the agent closed). A live session that runs a turn or waits for an answer is
   * closed only with `stopTurn` (the page asks the person first).
   */
  async close(id: string, options: { readonly stopTurn: boolean }): Promise<CloseOutcome> {
    const live = this.#live.get(id)
    if (live === undefined && !this.#isOwnSession(id)) return 'unknown'
    if (live !== undefined && (live.busy || live.waiting) && !options.stopTurn) return 'running'
    await this.#closed.close(id, new Date())
    if (live !== undefined) {
      this.#live.delete(id)
      const stopping = live.stop(this.#sessionEnd())
      this.#closing.set(id, stopping)
      this.#broadcast({ kind: 'closed', session: id })
      this.#broadcast({ kind: 'sessions' })
      try {
        await stopping
      } finally {
        this.#closing.delete(id)
      }
      return 'closed'
    }
    this.#broadcast({ kind: 'closed', session: id })
    this.#broadcast({ kind: 'sessions' })
    return 'closed'
  }

  /** Stops every live session. */
  async stopAll(): Promise<void> {
    const sessions = [...this.#live.values()]
    this.#live.clear()
    await Promise.all([...sessions.map((session) => session.stop(this.#sessionEnd())), ...this.#closing.values()])
  }

  #sessionEnd(): ((agent: Agent) => Promise<void>) | undefined {
    const sessionEnd = this.#env.sessionEnd
    return sessionEnd === undefined ? undefined : (agent) => sessionEnd(agent, 'other')
  }

  /** True when `id` is exactly a stored top-level session of this cwd. */
  #isOwnSession(id: string): boolean {
    let header: SessionHeader
    try {
      header = this.#env.host.sessions.header(id)
    } catch (error) {
      // An unknown id (or a file that cannot be read) names no session this server may close.
      if (isDshError(error)) return false
      throw error
    }
    return header.id === id && header.cwd === this.#env.cwd && header.parentSession === undefined
  }

  async #adopt(agent: Agent): Promise<LiveSession> {
    await this.#env.prepareAgent?.(agent)
    const id = agent.session.id
    const session = new LiveSession(agent, this.#env.approvals, { tap: (event, seq) => this.#broadcast({ kind: 'session', session: id, seq, event }), ...(this.#env.idle === undefined ? {} : { idle: this.#env.idle }) })
    this.#live.set(session.id, session)
    this.#broadcast({ kind: 'sessions' })
    return session
  }

  #broadcast(message: StreamMessage): void {
    for (const watcher of this.#watchers) watcher(message)
  }
}
