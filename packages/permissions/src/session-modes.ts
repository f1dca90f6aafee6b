/**
 * The permission mode of each session, switchable while it runs (the chat's `/mode`, an editor's
 * `session/set_mode`). Only the modes that share the sandbox dsh was started with can be switched
 * to: `ask`, `auto-edit` and `full-auto` all run shell commands with the roots writable, while
 * `read-only` (a read-only sandbox) and `danger-full-access` (none) need a sandbox set up at start
 * — switching to or from them would leave commands in a sandbox of the wrong shape. A switch lasts
 * while the process runs: a resumed session starts in the mode of its command line and config
 * again. A delegated session (header `parentSession`) that was not switched itself decides in the
 * mode in force for its parent, at each decision: tightening a session to `ask` tightens the
 * subagents it starts, and those already running, too.
 */
import type { PermissionMode, SessionView } from '@dsh/contracts'

/** The modes a running session can move between. */
const sameSandbox: readonly PermissionMode[] = ['ask', 'auto-edit', 'full-auto']

/** Why a switch from `from` to `to` cannot be made, or undefined when it can. */
export function modeSwitchRefusal(from: PermissionMode, to: PermissionMode): string | undefined {
  if (from === to) return undefined
  if (sameSandbox.includes(from) && sameSandbox.includes(to)) return undefined
  const odd = sameSandbox.includes(to) ? from : to
  return `${odd} needs a shell sandbox set up at start: start dsh again with --permission-mode ${to}`
}

/** Per-session modes over the start mode. */
export class SessionModes {
  readonly #start: PermissionMode
  readonly #bySession = new Map<string, PermissionMode>()
  /** Session id → its parent's, for every delegated session a decision was made for. */
  readonly #parentOf = new Map<string, string>()

  constructor(start: PermissionMode) {
    this.#start = start
  }

  /** The mode in force for the session (its own switch, else its nearest ancestor's, else the start mode). */
  of(view: SessionView | undefined): PermissionMode {
    if (view === undefined) return this.#start
    this.#remember(view)
    return this.ofId(view.header.id)
  }

  /** {@link of} by session id: ancestors are known from the delegated sessions seen so far. */
  ofId(id: string): PermissionMode {
    const seen = new Set<string>()
    for (let at: string | undefined = id; at !== undefined && !seen.has(at); at = this.#parentOf.get(at)) {
      seen.add(at)
      const mode = this.#bySession.get(at)
      if (mode !== undefined) return mode
    }
    return this.#start
  }

  /** Switches the session's mode; returns the refusal when the switch cannot be made. */
  set(view: SessionView, mode: PermissionMode): string | undefined {
    this.#remember(view)
    return this.setId(view.header.id, mode)
  }

  /** {@link set} by session id. */
  setId(id: string, mode: PermissionMode): string | undefined {
    const refusal = modeSwitchRefusal(this.#start, mode)
    if (refusal === undefined) this.#bySession.set(id, mode)
    return refusal
  }

  #remember(view: SessionView): void {
    const parent = view.header.parentSession
    if (parent !== undefined) this.#parentOf.set(view.header.id, parent)
  }
}
