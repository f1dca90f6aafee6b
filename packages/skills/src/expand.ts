/**
 * `/name args` expansion, the one function every front end calls: a prompt whose first word is
 * `/name` (lowercase letters, digits, `-`, `_`, `.`, `:` for groups) names a custom command or a
 * user-invocable skill; its body is sent instead, with `$ARGUMENTS` and `$1…$9` substituted (and
 * `${SKILL_DIR}` for a skill). Built-in names of the front end win and are never expanded. A
 * prompt that does not start with such a word is not a command. A first word with another `/`
 * names a nested skill by its qualified name (`/pkg/web:deploy`, when that skill has joined the
 * session); one that names none (`/usr/bin/foo is broken`) is a path, sent as typed.
 */
import type { PromptEvent } from '@dsh/contracts'
import { invokedEvent } from './in-use.ts'
import { skillGrant } from './skill-grant.ts'
import { substitute } from './substitute.ts'
import type { CommandFile, SkillSet } from './types.ts'

const INVOCATION = /^\/([A-Za-z0-9][A-Za-z0-9_./-]*(?::[A-Za-z0-9][A-Za-z0-9_.-]*)*)(?:\s+([\s\S]*))?$/

/** What a prompt turned into. */
export type Expansion =
  /** Not a `/name` prompt (or a built-in the front end handles): send it as typed. */
  | { readonly kind: 'plain' }
  /** A known command or skill: send `text`. */
  | {
      readonly kind: 'expanded'
      readonly name: string
      readonly text: string
      readonly from: 'command' | 'skill'
      readonly file: string
      /** Events to record with the prompt (`agent.prompt`'s `events`): a trusted skill's grant, and a skill's invocation (`skills/invoked`). */
      readonly events: readonly PromptEvent[]
    }
  /** `/name` names nothing: `known` lists what exists. */
  | { readonly kind: 'unknown'; readonly name: string; readonly known: readonly string[] }

/** What can be invoked. */
export interface Invocables {
  readonly commands: readonly CommandFile[]
  readonly skills?: SkillSet | undefined
  /** Names the front end handles itself (chat built-ins); they are never expanded. */
  readonly builtins?: ReadonlySet<string>
}

const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** The invocable names, commands first, sorted within each kind. */
export function invocableNames(invocables: Invocables): string[] {
  const commands = invocables.commands.filter((command) => command.shadowedBy === undefined && !(invocables.builtins?.has(command.name) ?? false)).map((command) => command.name)
  const skills = [...(invocables.skills?.skills.entries() ?? [])].filter(([key, skill]) => skill.meta.userInvocable && !commands.includes(key)).map(([key]) => key)
  return [...new Set([...commands.toSorted(order), ...skills.toSorted(order)])]
}

/** The name a prompt invokes, if it has the `/name` shape. */
export function invocationName(prompt: string): string | undefined {
  return INVOCATION.exec(prompt)?.[1]
}

/** Expands `prompt`. */
export function expandPrompt(prompt: string, invocables: Invocables): Expansion {
  const match = INVOCATION.exec(prompt)
  const name = match?.[1]
  if (match === null || name === undefined || (invocables.builtins?.has(name) ?? false)) return { kind: 'plain' }
  const args = match[2] ?? ''
  const command = invocables.commands.find((item) => item.name === name && item.shadowedBy === undefined)
  if (command !== undefined) return { kind: 'expanded', name, from: 'command', file: command.file, text: substitute(command.body, { arguments: args }), events: [] }
  const set = invocables.skills
  const skill = set?.skills.get(name)
  if (set !== undefined && skill !== undefined && skill.meta.userInvocable) {
    const grant = skillGrant({ set, key: name, skill, scope: 'next-turn' })
    // The invocation is recorded too, so a compaction that replaces the prompt brings the instructions back (in-use.ts).
    const events = [...(grant.event === undefined ? [] : [grant.event]), invokedEvent(name, args)]
    return { kind: 'expanded', name, from: 'skill', file: skill.file, text: substitute(skill.body, { arguments: args, skillDir: skill.folder }), events }
  }
  // `/usr/bin/foo`: a path, not a command name.
  if (name.includes('/')) return { kind: 'plain' }
  return { kind: 'unknown', name, known: invocableNames(invocables) }
}

/** The one-line error of an unknown `/name`. */
export const unknownCommandLine = (name: string, known: readonly string[]): string =>
  `unknown command /${name}; ${known.length === 0 ? 'no custom commands or skills are defined here' : `known: ${known.map((item) => `/${item}`).join(', ')}`} (a prompt that starts with / names a command; start it with a space or another word to send it as it is)`
