/**
 * Resolves name clashes and trust over what the scans found (in source rank order): the first
 * skill of a name wins and every later one is `shadowed` by it; a skill below the cwd (joined on
 * touch) never shadows or is shadowed by another directory's: when its name is taken it is
 * qualified by its directory (`pkg/web:deploy`). A project skill with `allowed-tools` is
 * `untrusted` until its digest is recorded by `dsh skills trust` (it still loads; its tools grant
 * nothing). Broken files are listed with one problem line each, and so is a file whose text
 * fields were read as plain text after strict YAML refused them (front-matter.ts).
 */
import { quotedLine } from './front-matter.ts'
import type { BrokenSkill, LoadedSkill, SkillEntry, SkillSet } from './types.ts'

/** Inputs of {@link resolveSkills}. */
export interface ResolveInput {
  /** Everything the scans found, in source rank order. */
  readonly found: readonly (LoadedSkill | BrokenSkill)[]
  readonly projectRoot: string
  /** Trusted SKILL.md digests of the project (path → sha256). */
  readonly trusted: Readonly<Record<string, string>>
  readonly linkRoots: readonly string[]
}

/** The warning line of a broken skill file. */
export const brokenLine = (skill: BrokenSkill): string => `skill ${skill.file}: ${skill.problem}; it is not loaded`

function isUntrusted(skill: LoadedSkill, trusted: Readonly<Record<string, string>>): boolean {
  return skill.source.scope !== 'user' && skill.meta.allowedTools.length > 0 && trusted[skill.file] !== skill.digest
}

/** The skill set of one discovery. */
export function resolveSkills(input: ResolveInput): SkillSet {
  const entries: SkillEntry[] = []
  const winners = new Map<string, LoadedSkill>()
  const nested: LoadedSkill[] = []
  const problems: string[] = []
  for (const skill of input.found) {
    if (skill.kind === 'broken') {
      entries.push({ key: skill.folder, state: 'broken', skill })
      problems.push(brokenLine(skill))
      continue
    }
    if (skill.meta.quotedFields !== undefined) problems.push(quotedLine('skill', skill.file, skill.meta.quotedFields))
    if (skill.source.scope === 'nested') {
      nested.push(skill)
      continue
    }
    const winner = winners.get(skill.meta.name)
    if (winner !== undefined) entries.push({ key: skill.meta.name, state: 'shadowed', skill, shadowedBy: winner.file })
    else winners.set(skill.meta.name, skill)
  }
  const nestedCount = new Map<string, number>()
  // Winners per directory and name: keyed by the strings the skills already hold (no key built per skill).
  const nestedWinners = new Map<string, Map<string, LoadedSkill>>()
  const nestedOrder: LoadedSkill[] = []
  for (const skill of nested) {
    const rel = skill.source.rel ?? ''
    let own = nestedWinners.get(rel)
    if (own === undefined) nestedWinners.set(rel, (own = new Map()))
    const winner = own.get(skill.meta.name)
    if (winner !== undefined) {
      entries.push({ key: `${rel}:${skill.meta.name}`, state: 'shadowed', skill, shadowedBy: winner.file })
      continue
    }
    own.set(skill.meta.name, skill)
    nestedOrder.push(skill)
    nestedCount.set(skill.meta.name, (nestedCount.get(skill.meta.name) ?? 0) + 1)
  }
  const skills = new Map<string, LoadedSkill>()
  const add = (key: string, skill: LoadedSkill): void => {
    skills.set(key, skill)
    entries.push({ key, state: isUntrusted(skill, input.trusted) ? 'untrusted' : 'active', skill })
  }
  for (const [name, skill] of winners) add(name, skill)
  for (const skill of nestedOrder) {
    const clash = winners.has(skill.meta.name) || (nestedCount.get(skill.meta.name) ?? 0) > 1
    add(clash ? `${skill.source.rel ?? ''}:${skill.meta.name}` : skill.meta.name, skill)
  }
  return { skills, entries, projectRoot: input.projectRoot, problems, linkRoots: input.linkRoots }
}
