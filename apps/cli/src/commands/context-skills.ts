/**
 * The skills part of `dsh context` (the skills a new session in the directory would list, and the
 * broken files) and of `dsh context why PATH` (the skills in effect for work on PATH: the chain's,
 * the additional roots' and the user's, plus those of the directories between the cwd and PATH,
 * which join when the agent first touches something there).
 */
import { isAbsolute, resolve } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { userHome } from '@dsh/runtime'
import { descendantDirs, terminalText } from '@dsh/workspace-context'
import type { CliIo } from '../cli-io.ts'

/** Where to look. */
export interface SkillsPlace {
  readonly fs: FileSystemPort
  readonly cwd: string
  readonly dshHome: string
}

const reasonOf = (scope: string, rel: string | undefined): string => {
  if (scope === 'nested') return `joins the first time the agent reads, writes or edits something in ${rel ?? '?'}`
  if (scope === 'project') return `in the chain from the project root to the working directory (${rel ?? '.'})`
  if (scope === 'additional-root') return 'at the top of an additional root'
  return 'a user skill'
}

/** Text and JSON of the skills, with `path` for `why`. */
export async function skillsReport(io: CliIo, place: SkillsPlace, path?: string): Promise<{ text: string; json: Record<string, unknown> }> {
  const skills = await import('@dsh/skills')
  const absolute = path === undefined ? undefined : isAbsolute(path) ? path : resolve(place.cwd, path)
  const first = await skills.loadWorkspaceSkills({ ...place, home: userHome(io.env['HOME']) })
  const nestedDirs = absolute === undefined ? [] : descendantDirs(first.skills.projectRoot, place.cwd, absolute).map((dir) => dir.abs)
  const set = nestedDirs.length === 0 ? first.skills : (await skills.loadWorkspaceSkills({ ...place, home: userHome(io.env['HOME']), nestedDirs })).skills
  const loaded = set.entries.filter((entry) => entry.state === 'active' || entry.state === 'untrusted')
  const rows = loaded.map((entry) => ({ name: entry.key, state: entry.skill.kind === 'skill' && entry.skill.meta.disableModelInvocation ? `${entry.state}, user only (not in the catalog)` : entry.state, scope: entry.skill.source.scope, file: entry.skill.file, why: reasonOf(entry.skill.source.scope, entry.skill.source.rel) }))
  const broken = set.entries.filter((entry) => entry.state === 'broken').map((entry) => ({ file: entry.skill.file, problem: entry.skill.kind === 'broken' ? entry.skill.problem : '' }))
  const lines = [path === undefined ? 'Skills (the catalog of a new session here; dsh skills list has details):' : `Skills for work on ${path}:`]
  if (rows.length === 0) lines.push('  none')
  for (const row of rows) lines.push(`  ${row.name}  ${row.state}  ${skills.folderDisplay(row.file, set.projectRoot)}  (${row.why})`)
  for (const item of broken) lines.push(`  broken: ${skills.folderDisplay(item.file, set.projectRoot)} (${item.problem})`)
  return { text: terminalText(lines.join('\n')), json: { skills: rows, brokenSkills: broken } }
}
