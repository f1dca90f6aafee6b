/**
 * `/context`: which workspace instruction files are active in the session. Read from what the
 * model actually sees: the visible user messages whose source is `workspace-instructions`, each
 * listing its typed changes (set / replace / remove), folded into the set of files in effect.
 */
import type { InstructionChange, Message, WorkspaceInstructionsSource } from '@dsh/contracts'

/** One visible instruction message. */
export interface InstructionMessage {
  readonly source: WorkspaceInstructionsSource
}

/** An instruction file in effect. */
export interface ActiveInstruction {
  readonly plugin: string
  readonly scope: string
  readonly path: string
  readonly root?: string
  readonly truncated: boolean
}

/** The visible instruction messages, in history order. */
export function instructionMessages(messages: readonly Message[]): InstructionMessage[] {
  return messages.flatMap((message) => (message.role === 'user' && message.source.kind === 'workspace-instructions' ? [{ source: message.source }] : []))
}

const keyOf = (plugin: string, change: InstructionChange): string => `${plugin}\u0000${change.root ?? ''}\u0000${change.scope}`

/** Folds the changes: a baseline resets its plugin's files, `remove` drops a scope. */
export function activeInstructions(messages: readonly InstructionMessage[]): ActiveInstruction[] {
  const active = new Map<string, ActiveInstruction>()
  for (const { source } of messages) {
    if (source.baseline === true) for (const [key, file] of active) if (file.plugin === source.plugin) active.delete(key)
    for (const change of source.changes) {
      const key = keyOf(source.plugin, change)
      if (change.action === 'remove') active.delete(key)
      else active.set(key, { plugin: source.plugin, scope: change.scope, path: change.path, truncated: change.truncated === true, ...(change.root === undefined ? {} : { root: change.root }) })
    }
  }
  return [...active.values()]
}

function describeChange(change: InstructionChange): string {
  const root = change.root === undefined ? '' : ` [${change.root}]`
  if (change.action === 'replace' && change.previousPath !== undefined && change.previousPath !== change.path) return `replace ${change.path}${root} (was ${change.previousPath})`
  return `${change.action} ${change.path}${root}${change.truncated === true ? ' (truncated)' : ''}`
}

/** The report lines for `/context`. */
export function contextReport(messages: readonly Message[]): string[] {
  const visible = instructionMessages(messages)
  if (visible.length === 0) return ['no workspace instruction files are visible in this session yet']
  const lines = [`instruction messages visible in this session: ${visible.length}`]
  visible.forEach(({ source }, index) => {
    const kind = source.baseline === true ? `${source.plugin} baseline` : source.plugin
    lines.push(`  ${index + 1}. ${kind}: ${source.changes.length === 0 ? '(no changes)' : source.changes.map(describeChange).join(', ')}`)
  })
  const active = activeInstructions(visible)
  lines.push(active.length === 0 ? 'active instruction files: none' : 'active instruction files:')
  for (const file of active) lines.push(`  ${file.path}${file.root === undefined ? '' : ` [${file.root}]`}${file.truncated ? ' (truncated)' : ''}`)
  return lines
}
