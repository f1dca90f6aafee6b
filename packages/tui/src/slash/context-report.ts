/**
 * `/context`: which workspace instruction files are active in the session. Read from what the
 * model actually sees: the visible user messages whose source is `workspace-instructions`, each
 * listing its typed changes (set / replace / remove). The workspace-context plugin's messages are
 * folded with the plugin's own `deriveVisibleState`, so the files listed are exactly the scopes the
 * plugin considers visible (a later baseline does not drop a scope it left in effect); messages of
 * other plugins are folded per plugin (a baseline resets that plugin's files, `remove` drops a
 * scope); the multi-root plugin's announcements of its roots are shown as such, not as files.
 * Paths are repository-derived, so they are made terminal-safe.
 */
import type { InstructionChange, Message, UserMessage, WorkspaceInstructionsSource } from '@dsh/contracts'
import { isRootScope, PLUGIN_NAME as MULTI_ROOT_PLUGIN } from '@dsh/multi-root-workspace'
import { deriveVisibleState, PLUGIN_NAME, terminalLine } from '@dsh/workspace-context'

/** One visible instruction message. */
export interface InstructionMessage {
  readonly source: WorkspaceInstructionsSource
  /** The message itself. */
  readonly message: UserMessage
}

/** An instruction file in effect. */
export interface ActiveInstruction {
  readonly plugin: string
  readonly scope: string
  readonly path: string
  readonly root?: string
  readonly truncated: boolean
  /** The file changed but could not be loaded: the text the model has from it may be outdated. */
  readonly outdated: boolean
}

/** The visible instruction messages, in history order. */
export function instructionMessages(messages: readonly Message[]): InstructionMessage[] {
  return messages.flatMap((message) => (message.role === 'user' && message.source.kind === 'workspace-instructions' ? [{ source: message.source, message }] : []))
}

const keyOf = (plugin: string, change: InstructionChange): string => `${plugin}\u0000${change.root ?? ''}\u0000${change.scope}`

/** The plugin's own fold (its visible state), loaded scopes only. */
function workspaceContextFiles(messages: readonly InstructionMessage[]): ActiveInstruction[] {
  const state = deriveVisibleState(
    messages.map(({ message }) => message),
    PLUGIN_NAME,
  )
  const files: ActiveInstruction[] = []
  for (const [scope, entry] of state.scopes) {
    if (entry.action !== 'remove') files.push({ plugin: PLUGIN_NAME, scope, path: entry.path, truncated: entry.truncated, outdated: entry.outdated })
  }
  return files
}

/** The multi-root plugin's announcements of its roots (the roots note), which are no files. */
const isRootAnnouncement = (plugin: string, change: InstructionChange): boolean => plugin === MULTI_ROOT_PLUGIN && isRootScope(change.scope)

/** Generic fold for other plugins: a baseline resets its plugin's files, `remove` drops a scope. */
function otherPluginFiles(messages: readonly InstructionMessage[]): ActiveInstruction[] {
  const active = new Map<string, ActiveInstruction>()
  for (const { source } of messages) {
    if (source.baseline === true) for (const [key, file] of active) if (file.plugin === source.plugin) active.delete(key)
    for (const change of source.changes) {
      if (isRootAnnouncement(source.plugin, change)) continue
      const key = keyOf(source.plugin, change)
      if (change.action === 'remove') active.delete(key)
      else active.set(key, { plugin: source.plugin, scope: change.scope, path: change.path, truncated: change.truncated === true, outdated: false, ...(change.root === undefined ? {} : { root: change.root }) })
    }
  }
  return [...active.values()]
}

/** The files in effect: the workspace-context plugin's visible scopes, then other plugins' files. */
export function activeInstructions(messages: readonly InstructionMessage[]): ActiveInstruction[] {
  const own = messages.filter(({ source }) => source.plugin === PLUGIN_NAME)
  const others = messages.filter(({ source }) => source.plugin !== PLUGIN_NAME)
  return [...workspaceContextFiles(own), ...otherPluginFiles(others)]
}

function describeChange(plugin: string, change: InstructionChange): string {
  if (isRootAnnouncement(plugin, change)) return `${change.action === 'remove' ? 'revoke' : 'announce'} root ${terminalLine(change.path)}`
  const root = change.root === undefined ? '' : ` [${terminalLine(change.root)}]`
  const path = terminalLine(change.path)
  if (change.action === 'replace' && change.previousPath !== undefined && change.previousPath !== change.path) return `replace ${path}${root} (was ${terminalLine(change.previousPath)})`
  return `${change.action} ${path}${root}${change.truncated === true ? ' (truncated)' : ''}`
}

function describeFile(file: ActiveInstruction): string {
  const root = file.root === undefined ? '' : ` [${terminalLine(file.root)}]`
  const marks = `${file.truncated ? ' (truncated)' : ''}${file.outdated ? ' (outdated: changed, could not be loaded)' : ''}`
  return `  ${terminalLine(file.path)}${root}${marks}`
}

/** The report lines for `/context`. */
export function contextReport(messages: readonly Message[]): string[] {
  const visible = instructionMessages(messages)
  if (visible.length === 0) return ['no workspace instruction files are visible in this session yet']
  const lines = [`instruction messages visible in this session: ${visible.length}`]
  visible.forEach(({ source }, index) => {
    const kind = source.baseline === true ? `${source.plugin} baseline` : source.plugin
    lines.push(`  ${index + 1}. ${terminalLine(kind)}: ${source.changes.length === 0 ? '(no changes)' : source.changes.map((change) => describeChange(source.plugin, change)).join(', ')}`)
  })
  const active = activeInstructions(visible)
  lines.push(active.length === 0 ? 'active instruction files: none' : 'active instruction files:')
  for (const file of active) lines.push(describeFile(file))
  return lines
}
