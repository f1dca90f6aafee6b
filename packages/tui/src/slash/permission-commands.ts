/**
 * `/mode` and `/permissions`: the session's permission mode (shown, and switched among the modes
 * the chat's sandbox allows) and the rules in force with where each was written; session rules
 * ("allow always" answers) can be removed by number or text, rules from files are changed there.
 */
import type { ChatPermissions, PermissionRuleRow } from '../chat-environment.ts'
import type { ChatController } from '../chat-controller.ts'
import { oneLine } from '../text-safety.ts'
import type { SlashCommandSpec, SlashContext } from './slash-registry.ts'

const unavailable = 'this chat cannot change permissions'

function modeLine(permissions: ChatPermissions, controller: ChatController): string {
  const others = permissions.switchable.filter((name) => name !== permissions.mode(controller.agent))
  return `mode: ${permissions.mode(controller.agent)} — ${permissions.label(controller.agent)}${others.length === 0 ? '' : ` (switch with /mode ${others.join('|')})`}`
}

function ruleLines(rows: readonly PermissionRuleRow[]): string[] {
  if (rows.length === 0) return ['no allow or deny rules: the mode decides every call']
  const width = Math.max(...rows.map((row) => row.text.length))
  return [
    'rules in force (a deny rule wins over every allow):',
    ...rows.map((row, index) => `  ${String(index + 1).padStart(2)}. ${row.effect.padEnd(5)} ${row.text.padEnd(width)}  ${row.source}`),
  ]
}

function setMode({ controller, view }: SlashContext, name: string): string {
  const permissions = controller.env.permissions
  if (permissions === undefined) return unavailable
  const refusal = permissions.setMode(controller.agent, name)
  if (refusal !== undefined) return `mode unchanged: ${refusal}`
  view.statusChanged()
  return `${modeLine(permissions, controller)}; applies from the next tool call`
}

/**
 * Shift+Tab at the prompt: the session moves to the next mode it can switch to (ask → auto-edit →
 * full-auto → ask), as `/mode NEXT` would; returns the line to show, undefined without controls.
 */
export function cycleMode(context: Pick<SlashContext, 'controller' | 'view'>): string | undefined {
  const permissions = context.controller.env.permissions
  if (permissions === undefined) return undefined
  const { switchable } = permissions
  const now = permissions.mode(context.controller.agent)
  if (switchable.length < 2) return `mode: ${now} (the only one of this sandbox: start dsh with --permission-mode for another)`
  const next = switchable[(switchable.indexOf(now) + 1) % switchable.length] ?? now
  const refusal = permissions.setMode(context.controller.agent, next)
  if (refusal !== undefined) return `mode unchanged: ${refusal}`
  context.view.statusChanged()
  return `mode: ${next} — ${permissions.label(context.controller.agent)} (Shift+Tab: next mode)`
}

function remove({ controller }: SlashContext, what: string): string {
  const permissions = controller.env.permissions
  if (permissions === undefined) return unavailable
  const rows = permissions.rules(controller.agent)
  const byNumber = /^\d+$/.test(what) ? rows[Number(what) - 1] : undefined
  const row = byNumber ?? rows.find((candidate) => candidate.text === what)
  if (row === undefined) return `no rule ${oneLine(what, 60)} (see /permissions for the numbers)`
  if (!row.removable) return `${row.text} comes from ${row.source}: change it there`
  return permissions.forget(controller.agent, row.text) ? `removed ${row.text} from this session` : `${row.text} is no longer a session rule`
}

export const modeCommand: SlashCommandSpec = {
  name: 'mode',
  usage: '/mode [NAME]',
  help: "show the session's permission mode, or switch it (ask, auto-edit, full-auto)",
  run: (context, args) => {
    const permissions = context.controller.env.permissions
    const name = args[0]
    if (name !== undefined) return setMode(context, name)
    return permissions === undefined ? `approvals: ${context.controller.env.approvalMode}` : modeLine(permissions, context.controller)
  },
}

export const permissionsCommand: SlashCommandSpec = {
  name: 'permissions',
  usage: '/permissions [remove N]',
  help: 'the permission mode and the rules in force with their sources; remove a session rule',
  run: (context, args) => {
    const permissions = context.controller.env.permissions
    if (permissions === undefined) return [`approvals: ${context.controller.env.approvalMode}`, unavailable]
    const [verb, ...rest] = args
    if (verb === 'remove') return rest.length === 0 ? 'usage: /permissions remove N|RULE' : remove(context, rest.join(' '))
    if (verb !== undefined) return `unknown /permissions argument ${oneLine(verb, 30)} (usage: /permissions [remove N|RULE])`
    const rows = permissions.rules(context.controller.agent)
    return [modeLine(permissions, context.controller), ...ruleLines(rows), ...(rows.some((row) => row.removable) ? ['/permissions remove N takes a session rule away'] : [])]
  },
}
