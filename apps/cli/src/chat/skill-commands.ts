/**
 * Custom commands and user-invocable skills as chat slash commands: each `/name` the working
 * directory offers joins the chat's registry (so `/help` and Tab completion list it), unless a
 * built-in has that name (the built-in wins; `/skills` names the shadowed file). Running one
 * discovers the files again and sends the expanded body as the next prompt. `/skills` lists the
 * skills and commands of the directory. A `/name` no command has — a skill of a nested directory
 * the session's catalog announced while the chat ran (`/pkg/web:deploy`) — is looked up by the
 * fallback with the session's announced directories, and sent expanded when it names one.
 */
import type { PromptEvent } from '@dsh/contracts'
import type { Agent } from '@dsh/runtime'
import type { WorkspaceSkills } from '@dsh/skills'
import { registerChatCommands, SlashRegistry, type SlashCommandSpec, type SlashFallback } from '@dsh/tui'
import { loadPlaceSkills } from '../command-expansion.ts'

/** Where the chat works. */
export interface ChatSkillsPlace {
  readonly cwd: string
  readonly dshHome: string
  readonly env: Readonly<Record<string, string | undefined>>
  /** Names of the product's own chat commands (they win too). */
  readonly productCommands: readonly string[]
  /** The additional roots of the session the chat starts with (skill-roots.ts): the commands listed at start. */
  readonly additionalRoots: readonly string[]
  /** The additional roots of the chat's session now (a running command discovers with them). */
  readonly liveRoots: (agent: Agent) => readonly string[]
}

async function load(place: ChatSkillsPlace, additionalRoots: readonly string[], agent?: Agent): Promise<{ skills: typeof import('@dsh/skills'); found: WorkspaceSkills }> {
  const skills = await import('@dsh/skills')
  const found = await loadPlaceSkills({ cwd: place.cwd, dshHome: place.dshHome, home: place.env['HOME'], additionalRoots, session: agent?.session })
  return { skills, found }
}

/** Sends the expansion of `typed` as the next prompt; false when it names no command or skill. */
async function sendExpanded(place: ChatSkillsPlace, controller: { readonly agent: Agent; submit(text: string, options: { events: readonly PromptEvent[]; asPrompt: true }): Promise<unknown> }, typed: string, builtins: ReadonlySet<string>): Promise<boolean> {
  const now = await load(place, place.liveRoots(controller.agent), controller.agent)
  const expansion = now.skills.expandPrompt(typed, { commands: now.found.commands, skills: now.found.skills, builtins })
  if (expansion.kind !== 'expanded') return false
  // The body is a prompt as it stands: a leading "/" or "!" in a file is text, never a command the chat runs.
  void controller.submit(expansion.text, { events: expansion.events, asPrompt: true })
  return true
}

function builtinNames(place: ChatSkillsPlace): Set<string> {
  const registry = new SlashRegistry()
  registerChatCommands(registry)
  const names = new Set([...place.productCommands, 'skills'])
  for (const spec of registry.list()) for (const name of [spec.name, ...(spec.aliases ?? [])]) names.add(name)
  return names
}

/** `/skills`, one command per invocable name, and the fallback for names found later. */
export async function skillCommands(place: ChatSkillsPlace): Promise<{ readonly commands: SlashCommandSpec[]; readonly fallback: SlashFallback }> {
  const builtins = builtinNames(place)
  const { skills, found } = await load(place, place.additionalRoots)
  const list: SlashCommandSpec = {
    name: 'skills',
    usage: '/skills',
    help: 'skills and custom commands of this directory (name, state, scope, path)',
    run: async ({ controller }) => {
      const now = await load(place, place.liveRoots(controller.agent), controller.agent)
      const notes = now.found.commands.filter((command) => builtins.has(command.name.toLowerCase())).map((command) => `  /${command.name}  shadowed by the built-in /${command.name.toLowerCase()}  ${command.file}`)
      return [...skills.formatSkillList(now.found.skills, now.found.commands).trimEnd().split('\n'), ...notes, ...now.found.problems.map((line) => `warning: ${line}`)]
    },
  }
  const specs: SlashCommandSpec[] = [list]
  for (const name of skills.invocableNames({ commands: found.commands, skills: found.skills, builtins })) {
    if (builtins.has(name.toLowerCase())) continue
    const command = found.commands.find((item) => item.name === name)
    const skill = found.skills.skills.get(name)
    const hint = command?.argumentHint ?? skill?.meta.argumentHint
    specs.push({
      name: name.toLowerCase(),
      usage: `/${name}${hint === undefined ? '' : ` ${hint}`}`,
      help: (command?.description ?? skill?.meta.description ?? (command === undefined ? 'skill' : 'custom command')).replace(/\s+/g, ' ').slice(0, 100),
      run: async ({ controller }, args) => ((await sendExpanded(place, controller, `/${name}${args.length === 0 ? '' : ` ${args.join(' ')}`}`, builtins)) ? undefined : `/${name} is gone from this directory`),
    })
  }
  const fallback: SlashFallback = async ({ controller }, command) => {
    if (builtins.has(command.name)) return { handled: false }
    const typed = `/${command.name}${command.args.length === 0 ? '' : ` ${command.args.join(' ')}`}`
    return (await sendExpanded(place, controller, typed, builtins)) ? { handled: true, output: undefined } : { handled: false }
  }
  return { commands: specs, fallback }
}
