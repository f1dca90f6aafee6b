/**
 * The `skill` tool: `{ name, arguments? }` → the skill's body (front matter removed, placeholders
 * substituted), its folder and its files. The SKILL.md is read again at the call through the same
 * link-checked, bounded read as discovery, so the model gets the file as it is now. A skill marked
 * `disable-model-invocation: true`, an unknown name or a file broken since discovery is an error
 * result saying what to do instead.
 */
import { z } from 'zod'
import type { SessionView, ToolDefinition } from '@dsh/contracts'
import { listFolder } from './folder-listing.ts'
import { readAgain } from './read-again.ts'
import type { SessionSkills } from './session-skills.ts'
import { skillGrant } from './skill-grant.ts'
import { substitute } from './substitute.ts'
import { SKILL_TOOL_DESCRIPTION, skillResult, unknownSkill, unreadableSkill, userOnlySkill } from './tool-texts.ts'

const parameters = z.object({
  name: z.string().describe('the skill\'s name as the catalog lists it'),
  arguments: z.string().optional().describe('what the skill should work on (optional)'),
})

/** What the tool runs on. */
export interface SkillToolHost {
  readonly skillsOf: (session: SessionView) => SessionSkills
  readonly maxSkillBytes: number
  readonly maxListedFiles: number
}

/** The tool. */
export function createSkillTool(host: SkillToolHost): ToolDefinition<z.infer<typeof parameters>> {
  return {
    name: 'skill',
    description: SKILL_TOOL_DESCRIPTION,
    parameters,
    readOnly: true,
    async execute(args, run) {
      const session = run.execution.agent?.session
      const set = session === undefined ? undefined : (await host.skillsOf(session).current(run.signal))?.skills
      if (session === undefined || set === undefined) return { isError: true, content: unknownSkill(args.name, []) }
      const skill = set.skills.get(args.name)
      const invocable = [...set.skills].filter(([, item]) => !item.meta.disableModelInvocation).map(([key]) => key)
      if (skill === undefined) return { isError: true, content: unknownSkill(args.name, invocable) }
      if (skill.meta.disableModelInvocation) return { isError: true, content: userOnlySkill(args.name) }
      const fresh = await readAgain({ fs: run.fs, skill, linkRoots: set.linkRoots, maxSkillBytes: host.maxSkillBytes, signal: run.signal })
      if (fresh.kind === 'broken') return { isError: true, content: unreadableSkill(args.name, fresh.problem) }
      const listing = await listFolder(run.fs, skill.folder, host.maxListedFiles, run.signal)
      const body = substitute(fresh.body, { arguments: args.arguments ?? '', skillDir: skill.folder })
      const grant = skillGrant({ set, key: args.name, skill, scope: 'turn' })
      const agent = run.execution.agent
      let recorded = false
      if (grant.event !== undefined && agent?.recordEvent !== undefined) {
        agent.recordEvent(grant.event.type, grant.event.data)
        recorded = true
      }
      // An agent that records nothing cannot carry a grant: say none was made.
      const note = grant.note?.kind === 'granted' && !recorded ? { ...grant.note, rules: [] } : grant.note
      return { content: skillResult({ key: args.name, folder: skill.folder, files: listing.files, more: listing.more, body, ...(note === undefined ? {} : { grant: note }) }), meta: { skill: args.name, file: skill.file, sha256: fresh.digest } }
    },
  }
}
