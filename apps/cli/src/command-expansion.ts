/**
 * `/name args` prompts of `dsh run` and `dsh chat`: the skills and commands of the session's
 * directory are discovered from the disk and the prompt expanded by @dsh/skills' one expansion
 * function. In `dsh run` an unknown `/name` is a usage error naming the known ones (exit 2) and
 * the model is never called; broken skill and command files are warning lines.
 */
import { createLocalFileSystem } from '@dsh/fs-local'
import { userHome } from '@dsh/runtime'
import type { CommandPlace, ExpandedPrompt, SessionView } from '@dsh/contracts'
import type { McpHub } from '@dsh/mcp'
import type { Expansion } from '@dsh/skills'
import { usageError } from './cli-error.ts'
import { prospectiveSkillRoots } from './skill-roots.ts'

/** Where the prompt is expanded. */
export interface ExpansionPlace {
  /** Canonical working directory of the session. */
  readonly cwd: string
  readonly dshHome: string
  /** Warning sink. */
  readonly log: (line: string) => void
  /** Names the front end handles itself (chat built-ins). */
  readonly builtins?: ReadonlySet<string>
  /** The session's additional roots (skill-roots.ts): their top-level skill folders count too. */
  readonly additionalRoots?: readonly string[]
  /** The open session, if any: skills of the nested directories its catalog announced count too. */
  readonly session?: SessionView | undefined
}

/**
 * The skills and commands `place` offers: the one discovery every front end's `/name` uses. With
 * an open session, the nested directories its catalog announced join as in the session's own
 * discovery, so their qualified names (`/pkg/web:deploy`) expand as the catalog listed them.
 */
export async function loadPlaceSkills(place: Pick<ExpansionPlace, 'cwd' | 'dshHome' | 'additionalRoots' | 'session'> & { readonly home?: string | undefined }) {
  const skills = await import('@dsh/skills')
  const nestedDirs = place.session === undefined ? [] : skills.announcedNestedDirs(place.session)
  return skills.loadWorkspaceSkills({ fs: createLocalFileSystem({ writableRoots: [] }), cwd: place.cwd, dshHome: place.dshHome, home: userHome(place.home), additionalRoots: place.additionalRoots ?? [], nestedDirs })
}

/** Expands `prompt` (plain prompts come back unchanged in an `expanded`-less result). */
export async function expandAt(prompt: string, place: ExpansionPlace): Promise<Expansion> {
  const skills = await import('@dsh/skills')
  if (skills.invocationName(prompt) === undefined) return { kind: 'plain' }
  const found = await loadPlaceSkills(place)
  const expansion = skills.expandPrompt(prompt, { commands: found.commands, skills: found.skills, ...(place.builtins === undefined ? {} : { builtins: place.builtins }) })
  // The session's plugin reports broken files itself; only a name that matched nothing shows them here.
  if (expansion.kind === 'unknown') for (const line of found.problems) place.log(`warning: ${line}`)
  return expansion
}

/** `dsh run`: what to send; an unknown `/name` throws a usage error. */
export async function expandRunPrompt(prompt: string, place: ExpansionPlace): Promise<ExpandedPrompt> {
  const expansion = await expandAt(prompt, place)
  switch (expansion.kind) {
    case 'plain':
      return { text: prompt, events: [] }
    case 'expanded':
      return { text: expansion.text, events: expansion.events }
    case 'unknown': {
      const { unknownCommandLine } = await import('@dsh/skills')
      throw usageError(unknownCommandLine(expansion.name, expansion.known))
    }
    default: {
      const unreachable: never = expansion
      throw new Error(`unknown expansion ${JSON.stringify(unreachable)}`)
    }
  }
}

/** Inputs of {@link frontEndCommands}. */
export interface FrontEndCommandsOptions {
  readonly dshHome: string
  readonly log: (line: string) => void
  readonly mcp?: McpHub | undefined
  /** Whether additional roots are enabled (the registered roots of a directory count then). */
  readonly multiRoot: boolean
}

/**
 * What `dsh acp` and `dsh web` offer as `/name` commands: the custom commands and skills, then the
 * MCP prompts of `mcp`'s servers (`/mcp__<server>__<prompt>`); an unknown `/name` goes as typed
 * there, and so does a prompt that cannot be expanded (with a warning line). A place's
 * `additionalRoots` are the session's additional directories as the front end knows them; the roots
 * registered for `cwd` join them (skill-roots.ts), so the skills of every root of the session
 * expand; its `session` adds the nested directories the session's catalog announced.
 */
export function frontEndCommands(options: FrontEndCommandsOptions) {
  const { dshHome, log, mcp } = options
  const roots = (cwd: string, granted: readonly string[] | undefined) => prospectiveSkillRoots({ dshHome, cwd, granted: granted ?? [], enabled: options.multiRoot })
  return {
    async list(place: CommandPlace): Promise<{ name: string; description: string; hint?: string }[]> {
      const skills = await import('@dsh/skills')
      const found = await loadPlaceSkills({ cwd: place.cwd, dshHome, additionalRoots: await roots(place.cwd, place.additionalRoots), session: place.session })
      const prompts = (mcp?.prompts() ?? []).map((command) => ({ name: command.name, description: command.description, ...(command.hint === undefined ? {} : { hint: command.hint }) }))
      return [...skills.invocableNames({ commands: found.commands, skills: found.skills }).map((name) => {
        const command = found.commands.find((item) => item.name === name && item.shadowedBy === undefined)
        const skill = found.skills.skills.get(name)
        const hint = command?.argumentHint ?? skill?.meta.argumentHint
        return { name, description: (command?.description ?? skill?.meta.description ?? 'custom command').replace(/\s+/g, ' '), ...(hint === undefined ? {} : { hint }) }
      }), ...prompts]
    },
    async expand(text: string, place: CommandPlace): Promise<ExpandedPrompt> {
      const expansion = await expandAt(text, { cwd: place.cwd, dshHome, log, additionalRoots: await roots(place.cwd, place.additionalRoots), session: place.session })
      if (expansion.kind === 'expanded') return { text: expansion.text, events: expansion.events }
      return { text: mcp === undefined ? text : await expandMcpPrompt(mcp, text, log), events: [] }
    },
    /** Calls `listener` when the MCP prompts may have changed; returns its disposer. */
    onChange: (listener: () => void): (() => void) => mcp?.onChange(listener) ?? (() => undefined),
  }
}

/** The text to send for `text` when it names one of `hub`'s prompts: its messages, else `text` (a failure is a warning line). */
export async function expandMcpPrompt(hub: McpHub, text: string, log: (line: string) => void): Promise<string> {
  const expansion = await hub.expandTyped(text)
  switch (expansion.kind) {
    case 'expanded':
      return expansion.text
    case 'unknown':
      return text
    case 'failed':
      log(`warning: ${expansion.message}; the text is sent as typed`)
      return text
    default: {
      const unreachable: never = expansion
      throw new Error(`unknown expansion ${JSON.stringify(unreachable)}`)
    }
  }
}
