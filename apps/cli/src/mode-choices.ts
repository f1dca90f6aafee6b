/**
 * The permission modes an editor's mode picker (`dsh acp`) and the web page's mode menu (`dsh web`)
 * offer: the modes that share the sandbox
 * dsh started with (ask, auto-edit, full-auto; a `read-only` or `danger-full-access` start offers
 * itself only), each with a short name and the label the chat's status line shows. Switching goes
 * through the permission guard's controls, by session id.
 */
import type { PermissionMode } from '@dsh/contracts'
import { isPermissionMode, modeSwitchRefusal, permissionModes } from '@dsh/permissions'
import type { AgentSetup } from './agent-setup.ts'
import { approvalLabel } from './chat/chat-permissions.ts'

/** The name of a mode in the editor's picker. */
function modeName(mode: PermissionMode): string {
  switch (mode) {
    case 'read-only':
      return 'Read-only'
    case 'ask':
      return 'Ask'
    case 'auto-edit':
      return 'Auto-edit'
    case 'full-auto':
      return 'Full auto'
    case 'danger-full-access':
      return 'Full access, no sandbox'
    default: {
      const unknown: never = mode
      return unknown
    }
  }
}

/** One mode as a picker lists it. */
export interface ModeChoice {
  readonly id: string
  readonly name: string
  readonly description: string
}

/** The modes of the sessions of one front end, switched by session id. */
export interface ModeChoices {
  /** In the order a picker lists them (the start mode among them). */
  readonly available: readonly ModeChoice[]
  current(sessionId: string): string
  /** A one-line refusal (nothing changed) when the session cannot switch to `modeId`. */
  set(sessionId: string, modeId: string): string | undefined
}

/** The modes of the sessions of one `dsh acp` or `dsh web`. */
export function modeChoices(setup: AgentSetup): ModeChoices {
  const { controls } = setup.permissions
  const start = setup.sandbox.mode
  const available = permissionModes.filter((mode) => modeSwitchRefusal(start, mode) === undefined).map((mode) => ({ id: mode, name: modeName(mode), description: approvalLabel(setup, mode) }))
  return {
    available,
    current: (sessionId) => controls.sessionMode(sessionId),
    set: (sessionId, modeId) => (isPermissionMode(modeId) ? controls.setSessionMode(sessionId, modeId) : `unknown mode ${modeId}`),
  }
}
