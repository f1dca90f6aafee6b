/**
 * Every text of the `skill` tool the model sees (README "What the model sees" quotes them): its
 * description, a result, and the errors with the way forward.
 */

/** The tool's description. */
export const SKILL_TOOL_DESCRIPTION =
  'Use a skill from the skills catalog: returns the skill\'s instructions (its SKILL.md without front matter), its folder and the files in it. Read the files it mentions with `read` and run its scripts with `bash` when the instructions say so. `arguments` is the text the skill works on (it fills $ARGUMENTS and $1…$9).'

/** Inputs of a result. */
export interface SkillResultText {
  readonly key: string
  readonly folder: string
  readonly files: readonly string[]
  readonly more: number
  readonly body: string
  /** What the skill's `allowed-tools` did at this call (absent: it lists none). */
  readonly grant?: GrantNote
}

/** The outcome of a skill's `allowed-tools` at a call. */
export type GrantNote =
  | { readonly kind: 'granted'; readonly rules: readonly string[]; readonly ignored: readonly string[] }
  | { readonly kind: 'untrusted' }

function grantLine(note: GrantNote | undefined): string {
  if (note === undefined) return ''
  switch (note.kind) {
    case 'granted': {
      const ignored = note.ignored.length === 0 ? '' : ` (${note.ignored.join(', ')}: no such dsh tool, not granted)`
      const rules = note.rules.length === 0 ? 'none' : note.rules.join(', ')
      return `Allowed tools until the end of this turn, without a question: ${rules}${ignored}\n`
    }
    case 'untrusted':
      return 'Allowed tools: none granted, the project\'s skills are not trusted (the user can run `dsh skills trust`); calls ask as usual\n'
    default: {
      const unreachable: never = note
      throw new Error(`unknown grant note ${JSON.stringify(unreachable)}`)
    }
  }
}

/** The text of a successful call. */
export function skillResult(input: SkillResultText): string {
  const more = input.more === 0 ? '' : `\n(and ${input.more} more files not listed)`
  const files = input.files.length === 0 ? '(none)' : input.files.map((file) => `- ${file}`).join('\n')
  return `Skill: ${input.key}\nFolder: ${input.folder}\n${grantLine(input.grant)}Files in the folder:\n${files}${more}\n\n${input.body.replace(/\s+$/, '')}\n`
}

/** An unknown name. */
export const unknownSkill = (name: string, known: readonly string[]): string =>
  `There is no skill named ${JSON.stringify(name)}. ${known.length === 0 ? 'No skills are available in this workspace.' : `Available skills: ${known.join(', ')}.`} Call the skill tool with one of these names, or go on without a skill.`

/** A skill only a person may invoke. */
export const userOnlySkill = (name: string): string =>
  `The skill ${JSON.stringify(name)} can only be invoked by the user (disable-model-invocation: true). Do not call it; if it is needed, ask the user to run /${name}.`

/** A skill that could not be read now. */
export const unreadableSkill = (name: string, problem: string): string =>
  `The skill ${JSON.stringify(name)} could not be loaded: ${problem}. Go on without it, or tell the user the skill file needs fixing.`
