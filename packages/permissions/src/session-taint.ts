/**
 * Per session, the protected files (protected-files.ts) that a `write` or `edit` changed without
 * a question — allowed by a rule or by the mode. After such a change, `bash(…)` and `run_code(…)`
 * allow rules no longer cover a shell call in that session (issue 19, item 5): `npm test` is not
 * the command the user allowed once `package.json` says something else. A resumed session's
 * changes are read back from its log (`tool/permission` allow events of `write`/`edit` decided by
 * a rule or the mode, with the path of the matching `tool/call`) the first time it is consulted.
 */
import type { SessionView } from '@dsh/contracts'
import { dataOf } from '@dsh/runtime'

/** One change that stops allow rules. */
export interface TaintingChange {
  /** The path as the model sees it. */
  readonly shown: string
  /** Why the file is protected. */
  readonly reason: string
}

/** What a logged call changed, if it is a protected file (the caller's path facts). */
export type ProtectedOf = (tool: string, args: unknown) => TaintingChange | undefined

function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    // Arguments the model wrote as broken JSON never reached a tool: nothing was changed.
    return undefined
  }
}

/** The changes a session's log shows were made without a question. */
function fromLog(view: SessionView, protectedOf: ProtectedOf): TaintingChange[] {
  const calls = new Map<string, { readonly name: string; readonly args: unknown }>()
  const changes: TaintingChange[] = []
  for (const event of view.events) {
    const call = dataOf(event, 'tool/call')
    if (call !== undefined) calls.set(call.callId, { name: call.name, args: parsedArguments(call.arguments) })
  }
  for (const event of view.events) {
    const permission = dataOf(event, 'tool/permission')
    if (permission === undefined || permission.decision !== 'allow' || permission.by === 'answer' || permission.mode === 'danger-full-access') continue
    if (permission.tool !== 'write' && permission.tool !== 'edit') continue
    const logged = calls.get(permission.callId)
    const change = logged === undefined ? undefined : protectedOf(logged.name, logged.args)
    if (change !== undefined) changes.push(change)
  }
  return changes
}

/** The tainting changes of every session the host serves (keyed by session id). */
export class SessionTaint {
  readonly #bySession = new Map<string, TaintingChange[]>()

  /** Reads a session's earlier changes from its log, once (a resumed session keeps its taint). */
  load(view: SessionView, protectedOf: ProtectedOf): void {
    const id = view.header.id
    if (this.#bySession.has(id)) return
    this.#bySession.set(id, fromLog(view, protectedOf))
  }

  /** Records a change made without a question. */
  add(session: string, change: TaintingChange): void {
    const list = this.#bySession.get(session) ?? []
    if (!list.some((known) => known.shown === change.shown)) list.push(change)
    this.#bySession.set(session, list)
  }

  /** The first change recorded for the session, if any. */
  first(session: string): TaintingChange | undefined {
    return this.#bySession.get(session)?.[0]
  }
}
