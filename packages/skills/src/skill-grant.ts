/**
 * What a skill's `allowed-tools` does when it is invoked: a trusted skill (a user skill, or a
 * project skill whose file is pinned by `dsh skills trust`) yields a `skills/grant` event whose
 * rules the permission guard lets through without a question until the turn ends; an untrusted
 * one grants nothing. The event is the only carrier: a resumed session reads it back from the log.
 * The `skill` tool records it inside the turn; a front end that expands `/name` passes it to
 * `agent.prompt` (`events`), which records it just before the turn it starts.
 */
import type { PromptEvent, SkillGrantData } from '@dsh/contracts'
import { allowedRules } from './allowed-tools.ts'
import type { GrantNote } from './tool-texts.ts'
import type { LoadedSkill, SkillSet } from './types.ts'

/** The plugin event a grant is recorded as (read by @dsh/permissions' skill-grants.ts). */
export const GRANT_EVENT = 'skills/grant'


/** True when the skill's `allowed-tools` may grant: listed `active` (untrusted project skills are `untrusted`). */
function grantsTrusted(set: SkillSet, key: string): boolean {
  return set.entries.some((entry) => entry.key === key && entry.state === 'active')
}

/** Inputs of {@link skillGrant}. */
export interface GrantInput {
  readonly set: SkillSet
  readonly key: string
  readonly skill: LoadedSkill
  /** `turn` from the `skill` tool; `next-turn` from a front end before the prompt it sends. */
  readonly scope: SkillGrantData['scope']
}

/** What an invocation grants: the note for the model, and the event to record (none when nothing is granted). */
export interface SkillGrant {
  readonly note: GrantNote | undefined
  readonly event: PromptEvent | undefined
}

/** The grant of one invocation (pure). */
export function skillGrant(input: GrantInput): SkillGrant {
  if (input.skill.meta.allowedTools.length === 0) return { note: undefined, event: undefined }
  if (!grantsTrusted(input.set, input.key)) return { note: { kind: 'untrusted' }, event: undefined }
  const { rules, ignored } = allowedRules(input.skill.meta.allowedTools)
  const data: SkillGrantData = { skill: input.key, file: input.skill.file, rules, scope: input.scope }
  return { note: { kind: 'granted', rules, ignored }, event: rules.length === 0 ? undefined : { type: GRANT_EVENT, data } }
}
