/**
 * The permission mode of each session, switchable while it runs (the chat's `/mode`). Only the
 * modes that share the sandbox dsh was started with can be switched to: `ask`, `auto-edit` and
 * `full-auto` all run shell commands with the roots writable, while `read-only` (a read-only
 * sandbox) and `danger-full-access` (none) need a sandbox set up at start — switching to or from
 * them would leave commands in a sandbox of the wrong shape. A switch lasts while the process
 * runs: a resumed session starts in the mode of its command line and config again.
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

  constructor(start: PermissionMode) {
    this.#start = start
  }

  /** The mode in force for the session. */
  of(view: SessionView | undefined): PermissionMode {
    return (view === undefined ? undefined : this.#bySession.get(view.header.id)) ?? this.#start
  }

  /** Switches the session's mode; returns the refusal when the switch cannot be made. */
  set(view: SessionView, mode: PermissionMode): string | undefined {
    const refusal = modeSwitchRefusal(this.#start, mode)
    if (refusal === undefined) this.#bySession.set(view.header.id, mode)
    return refusal
  }
}
