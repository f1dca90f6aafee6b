/**
 * The permission modes `dsh acp` offers an editor's mode picker: the modes that share the sandbox
 * dsh started with (ask, auto-edit, full-auto; a `read-only` or `danger-full-access` start offers
 * itself only), each with a short name and the label the chat's status line shows. Switching goes
 * through the permission guard's controls, by session id.
 */
import type { AcpModes } from '@dsh/acp'
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

/** The modes of the sessions of one `dsh acp`. */
export function acpModes(setup: AgentSetup): AcpModes {
  const { controls } = setup.permissions
  const start = setup.sandbox.mode
  const available = permissionModes.filter((mode) => modeSwitchRefusal(start, mode) === undefined).map((mode) => ({ id: mode, name: modeName(mode), description: approvalLabel(setup, mode) }))
  return {
    available,
    current: (sessionId) => controls.sessionMode(sessionId),
    set: (sessionId, modeId) => (isPermissionMode(modeId) ? controls.setSessionMode(sessionId, modeId) : `unknown mode ${modeId}`),
  }
}
