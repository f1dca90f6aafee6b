/**
 * The chat's view of the permission guard (`/mode`, `/permissions`, the status line): the session's
 * mode and its label (saying so when shell commands ask because there is no sandbox), the modes it
 * may switch to, and the rules in force — deny rules, then the session's "allow always" rules,
 * then the configured allow rules — each with where it was written.
 */
import type { PermissionMode } from '@dsh/contracts'
import { isPermissionMode, modeLabel, modeSwitchRefusal, permissionModes } from '@dsh/permissions'
import type { ChatPermissions, PermissionRuleRow } from '@dsh/tui'
import type { AgentSetup } from '../agent-setup.ts'

/** The label of a mode: without a sandbox (probed once, at start) shell commands ask whatever the mode. */
export function approvalLabel(setup: AgentSetup, mode: PermissionMode = setup.sandbox.mode): string {
  const unsandboxed = mode !== 'danger-full-access' && !setup.sandbox.launcher.available()
  return unsandboxed ? `${modeLabel(mode)} · no sandbox: shell commands ask` : modeLabel(mode)
}

/** The controls of the chat's sessions. */
export function chatPermissions(setup: AgentSetup): ChatPermissions {
  const { controls, configuredRules } = setup.permissions
  const start = setup.sandbox.mode
  return {
    label: (agent) => approvalLabel(setup, controls.mode(agent.handle)),
    mode: (agent) => controls.mode(agent.handle),
    switchable: permissionModes.filter((mode) => modeSwitchRefusal(start, mode) === undefined),
    setMode: (agent, name) => (isPermissionMode(name) ? controls.setMode(agent.handle, name) : `unknown mode ${name} (modes: ${permissionModes.join(', ')})`),
    rules: (agent) => {
      const configured = configuredRules().map((row): PermissionRuleRow => ({ ...row, removable: false }))
      const session = controls.sessionRules(agent.handle).map((text): PermissionRuleRow => ({ effect: 'allow', text, source: 'this session ("allow always")', removable: true }))
      return [...configured.filter((row) => row.effect === 'deny'), ...session, ...configured.filter((row) => row.effect === 'allow')]
    },
    forget: (agent, rule) => controls.forget(agent.handle, rule),
  }
}
