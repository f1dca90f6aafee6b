/**
 * Terminal text of `dsh skills list|show` and the skills part of `dsh context`: one line per
 * skill (name, state, scope, path, description) and per command, paths shown relative to the
 * project root inside it. The caller makes the text terminal-safe.
 */
import { folderDisplay } from './catalog-text.ts'
import type { CommandFile, SkillEntry, SkillSet } from './types.ts'

const stateText = (entry: SkillEntry, root: string): string => {
  switch (entry.state) {
    case 'active':
      return entry.skill.kind === 'skill' && entry.skill.meta.disableModelInvocation ? 'active (user only)' : 'active'
    case 'shadowed':
      return `shadowed by ${folderDisplay(entry.shadowedBy ?? '', root)}`
    case 'broken':
      return `broken: ${entry.skill.kind === 'broken' ? entry.skill.problem : ''}`
    case 'untrusted':
      return 'untrusted (allowed-tools grant nothing until dsh skills trust)'
    default: {
      const unreachable: never = entry.state
      return String(unreachable)
    }
  }
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim()

/** One line of a skill entry. */
function entryLine(entry: SkillEntry, root: string): string {
  const skill = entry.skill
  const name = skill.kind === 'skill' ? entry.key : `(${folderDisplay(skill.folder, root)})`
  const description = skill.kind === 'skill' ? `  ${oneLine(skill.meta.description)}` : ''
  return `${name}  ${stateText(entry, root)}  ${skill.source.scope}  ${folderDisplay(skill.file, root)}${description}`
}

/** The `dsh skills list` text. */
export function formatSkillList(set: SkillSet, commands: readonly CommandFile[]): string {
  const lines = [`project root: ${set.projectRoot}`]
  lines.push(set.entries.length === 0 ? 'skills: none' : 'skills:')
  for (const entry of set.entries) lines.push(`  ${entryLine(entry, set.projectRoot)}`)
  lines.push(commands.length === 0 ? 'commands: none' : 'commands:')
  for (const command of commands) {
    const state = command.shadowedBy === undefined ? 'active' : `shadowed by ${folderDisplay(command.shadowedBy, set.projectRoot)}`
    lines.push(`  /${command.name}  ${state}  ${command.scope}  ${folderDisplay(command.file, set.projectRoot)}${command.description === undefined ? '' : `  ${oneLine(command.description)}`}`)
  }
  return `${lines.join('\n')}\n`
}

/** The `dsh skills show NAME` text, `undefined` when no entry has that name. */
export function formatSkillShow(set: SkillSet, name: string): string | undefined {
  const entries = set.entries.filter((entry) => entry.key === name || (entry.skill.kind === 'skill' && entry.skill.meta.name === name))
  if (entries.length === 0) return undefined
  const blocks = entries.map((entry) => {
    const skill = entry.skill
    const head = [`${entry.key}: ${stateText(entry, set.projectRoot)}`, `scope: ${skill.source.scope}`, `file: ${skill.file}`]
    if (skill.kind === 'broken') return head.join('\n')
    head.push(`description: ${oneLine(skill.meta.description)}`)
    if (skill.meta.whenToUse !== undefined) head.push(`when to use: ${oneLine(skill.meta.whenToUse)}`)
    if (skill.meta.argumentHint !== undefined) head.push(`arguments: ${skill.meta.argumentHint}`)
    if (skill.meta.allowedTools.length > 0) head.push(`allowed-tools: ${skill.meta.allowedTools.join(', ')}`)
    head.push(`model may invoke: ${skill.meta.disableModelInvocation ? 'no' : 'yes'}; user may invoke as /${entry.key}: ${skill.meta.userInvocable ? 'yes' : 'no'}`)
    return `${head.join('\n')}\n\n${skill.body.replace(/\s+$/, '')}`
  })
  return `${blocks.join('\n\n---\n\n')}\n`
}

/** The skills lines of `dsh context`. */
export function skillsContextLines(set: SkillSet): string[] {
  const count = (state: SkillEntry['state']): number => set.entries.filter((entry) => entry.state === state).length
  const active = set.entries.filter((entry) => entry.state === 'active' || entry.state === 'untrusted')
  const lines = [`Skills: ${active.length} loaded, ${count('shadowed')} shadowed, ${count('broken')} broken, ${count('untrusted')} untrusted (details: dsh skills list)`]
  for (const entry of active) lines.push(`  ${entry.key}  ${folderDisplay(entry.skill.file, set.projectRoot)}`)
  for (const entry of set.entries.filter((item) => item.state === 'broken')) lines.push(`  broken: ${folderDisplay(entry.skill.file, set.projectRoot)} (${entry.skill.kind === 'broken' ? entry.skill.problem : ''})`)
  return lines
}
