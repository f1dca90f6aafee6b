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

/** A resolved set as {@link resolveSkills} builds it: its map and entries are its own, so {@link appendNested} may extend them. */
export interface ResolvedSkills extends SkillSet {
  readonly skills: Map<string, LoadedSkill>
  readonly entries: SkillEntry[]
}

/** The skill set of one discovery. */
export function resolveSkills(input: ResolveInput): ResolvedSkills {
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

/**
 * Extends `set` in place with `joined`, the skills of nested sources that just joined (in source
 * order), when none of them needs a precedence decision: each loaded, read without a problem line,
 * under a name no skill of the set or of `joined` has (`names`: the names in use, extended too).
 * {@link resolveSkills} over everything would then give the same keys, states and problems, with
 * the new skills placed among the nested ones. Returns the new skills with their keys; `undefined`
 * (nothing changed) when any of them needs the full pass.
 */
export function appendNested(set: ResolvedSkills, names: Set<string>, joined: readonly (LoadedSkill | BrokenSkill)[], trusted: Readonly<Record<string, string>>): [string, LoadedSkill][] | undefined {
  const fresh = new Set<string>()
  for (const skill of joined) {
    if (skill.kind === 'broken' || skill.source.scope !== 'nested' || skill.meta.quotedFields !== undefined) return undefined
    if (names.has(skill.meta.name) || fresh.has(skill.meta.name)) return undefined
    fresh.add(skill.meta.name)
  }
  const added: [string, LoadedSkill][] = []
  for (const skill of joined) {
    if (skill.kind === 'broken') continue
    const key = skill.meta.name
    names.add(key)
    set.skills.set(key, skill)
    set.entries.push({ key, state: isUntrusted(skill, trusted) ? 'untrusted' : 'active', skill })
    added.push([key, skill])
  }
  return added
}

/** The names a set's skills go by in precedence decisions (their front matter names). */
export function namesInUse(set: SkillSet): Set<string> {
  const names = new Set<string>()
  for (const skill of set.skills.values()) names.add(skill.meta.name)
  return names
}
