/**
 * The web host's answer to permission questions: the host's `askPermission` (created before the
 * host exists) hands each question to the live session that owns the call, which shows it on the
 * page; the page answers with one of its choices (once, always, always for the whole tool, reject)
 * and the bridge turns it into the {@link PermissionDecision} the pipeline expects. "Always" covers
 * a simple command's prefix, a compound command's part prefixes together, a fetched URL's host, or
 * another tool whole; the whole `bash` tool is on offer for a compound command, and the whole
 * `web_fetch` tool, only from the second question about that tool in the session (runtime's
 * `alwaysOffers`). A call nobody can answer (no live
 * session owns it, e.g. a subagent's) is rejected with a note saying why. A question whose call is
 * cancelled first is withdrawn and answered "reject"; one cancelled before it is asked is rejected
 * without being shown.
 */
import { randomUUID } from 'node:crypto'
import type { ApprovalScope, PermissionDecision, ToolExecution } from '@dsh/contracts'
import { alwaysOffers, type AskPermission } from '@dsh/runtime'

/** The answers on offer. */
export type ApprovalChoice = 'once' | 'always' | 'always-tool' | 'reject'

/** A question as the page shows it. */
export interface ApprovalView {
  /** Id the answer names. */
  readonly id: string
  /** Id of the tool call that asks (the page marks that call's row "waiting for you"). */
  readonly callId: string
  /** Tool name (`bash`, `run_code`, …). */
  readonly tool: string
  /** The command or code to run (or the JSON arguments of another tool). */
  readonly code: string
  /** Why the policy asks, when it said. */
  readonly reason?: string
  /**
   * What "always" covers: the command prefix of a simple bash command, the part prefixes of a
   * compound one, or the whole tool (other tools); absent when only "once" is on offer.
   */
  readonly always?: ApprovalScope
  /** True when "always for the whole tool" is on offer besides (a compound command asked about again). */
  readonly alwaysTool: boolean
}

/** Where a session shows its questions. */
export interface ApprovalSink {
  /** Shows a question. */
  show(view: ApprovalView): void
  /** Removes a question (answered or withdrawn). */
  withdraw(id: string): void
}

/** The bridge between the pipeline and the pages. */
export interface ApprovalBridge {
  /** Give this to the host. */
  readonly askPermission: AskPermission
  /** Attaches the sink of a live session; returns the detach function (pending questions are rejected). */
  attach(sessionId: string, sink: ApprovalSink): () => void
  /** The questions waiting in a session. */
  pending(sessionId: string): ApprovalView[]
  /** Answers a question: `unknown` when no such question waits in that session, `not-offered` for an answer it did not offer. */
  answer(sessionId: string, id: string, choice: ApprovalChoice, note?: string): 'answered' | 'unknown' | 'not-offered'
}

interface Waiting {
  readonly sessionId: string
  readonly view: ApprovalView
  readonly resolve: (decision: PermissionDecision) => void
}

function codeOf(execution: ToolExecution): string {
  const args = execution.arguments
  if (typeof args === 'object' && args !== null) {
    const key = execution.name === 'bash' ? 'command' : execution.name === 'run_code' ? 'code' : undefined
    const value: unknown = key === undefined ? undefined : Object.getOwnPropertyDescriptor(args, key)?.value
    if (typeof value === 'string') return value
  }
  return JSON.stringify(args, null, 2) ?? ''
}

/** Turns a choice into the pipeline's decision; undefined for an "always" the question did not offer. */
export function decisionOf(view: ApprovalView, choice: ApprovalChoice, note?: string): PermissionDecision | undefined {
  switch (choice) {
    case 'once':
      return { kind: 'allow-once' }
    case 'always':
      return view.always === undefined ? undefined : { kind: 'allow-always', scope: view.always }
    case 'always-tool':
      return view.alwaysTool || view.always?.kind === 'tool' ? { kind: 'allow-always', scope: { kind: 'tool' } } : undefined
    case 'reject':
      return note === undefined || note.trim() === '' ? { kind: 'reject' } : { kind: 'reject', note: note.trim().replace(/\s+/g, ' ') }
    default:
      return choice satisfies never
  }
}

/** Creates the bridge. */
export function createApprovalBridge(): ApprovalBridge {
  const sinks = new Map<string, ApprovalSink>()
  const waiting = new Map<string, Waiting>()
  /** Questions asked per session and tool (`session\0tool`). */
  const asked = new Map<string, number>()
  const settle = (id: string, decision: PermissionDecision): void => {
    const entry = waiting.get(id)
    if (entry === undefined) return
    waiting.delete(id)
    sinks.get(entry.sessionId)?.withdraw(id)
    entry.resolve(decision)
  }
  return {
    askPermission: (execution, reason) => {
      const sessionId = execution.agent?.id
      const sink = sessionId === undefined ? undefined : sinks.get(sessionId)
      if (sessionId === undefined || sink === undefined) return Promise.resolve({ kind: 'reject', note: 'nobody could be asked: only the sessions open on the dsh web page can approve calls' })
      // Cancelled while the guards ran: its abort event is gone, so a question now would wait for an answer nobody needs.
      if (execution.signal.aborted) return Promise.resolve({ kind: 'reject' })
      const code = codeOf(execution)
      const key = `${sessionId}\0${execution.name}`
      const askedBefore = asked.get(key) ?? 0
      asked.set(key, askedBefore + 1)
      const view: ApprovalView = { id: randomUUID(), callId: execution.callId, tool: execution.name, code, ...alwaysOffers(execution, askedBefore), ...(reason === undefined ? {} : { reason }) }
      return new Promise<PermissionDecision>((resolve) => {
        waiting.set(view.id, { sessionId, view, resolve })
        execution.signal.addEventListener('abort', () => settle(view.id, { kind: 'reject' }), { once: true })
        sink.show(view)
      })
    },
    attach(sessionId, sink) {
      sinks.set(sessionId, sink)
      return () => {
        if (sinks.get(sessionId) !== sink) return
        // Withdrawn while the sink is still attached, so the page is told before it goes.
        for (const [id, entry] of waiting) if (entry.sessionId === sessionId) settle(id, { kind: 'reject' })
        sinks.delete(sessionId)
      }
    },
    pending: (sessionId) => [...waiting.values()].filter((entry) => entry.sessionId === sessionId).map((entry) => entry.view),
    answer(sessionId, id, choice, note) {
      const entry = waiting.get(id)
      if (entry === undefined || entry.sessionId !== sessionId) return 'unknown'
      const decision = decisionOf(entry.view, choice, note)
      if (decision === undefined) return 'not-offered'
      settle(id, decision)
      return 'answered'
    },
  }
}
