/**
 * Slash commands as a registry: each command is a name, a usage line, a help line and a handler
 * that may return text (a line or lines) to show. Products plug their own commands in (plain
 * functions returning text fit as they are); the chat's own commands register the same way.
 * `//text` sends `/text` as a prompt; a name no command has goes to the fallback (a product's
 * names that are known only while the chat runs), and when that does not take it, gets a one-line hint.
 */
import type { ChatController } from '../chat-controller.ts'
import type { ChatView } from '../chat-view.ts'
import { oneLine } from '../text-safety.ts'

/** A parsed slash command. */
export interface SlashCommand {
  /** Name without the slash, lower-cased. */
  readonly name: string
  /** Whitespace-separated arguments. */
  readonly args: readonly string[]
}

/** What a handler may use. */
export interface SlashContext {
  /** The chat (current agent, host, model, session switching). */
  readonly controller: ChatController
  /** Output. */
  readonly view: ChatView
  /** Aborts when the person cancels (Ctrl-C, Esc). */
  readonly signal: AbortSignal
}

/** Text a handler returns to show: nothing, one line, or lines. */
export type SlashOutput = void | string | readonly string[]

/** One command. */
export interface SlashCommandSpec {
  /** Name without the slash (lower case). */
  readonly name: string
  /** Other names (`quit` for `exit`). */
  readonly aliases?: readonly string[]
  /** Usage shown by `/help` (`/resume [ID]`). */
  readonly usage: string
  /** One line for `/help` and completion. */
  readonly help: string
  /** Runs the command. */
  run(context: SlashContext, args: readonly string[]): SlashOutput | Promise<SlashOutput>
}

/** Handles a command no registered spec has; `false` when it does not know the name either. */
export type SlashFallback = (context: SlashContext, command: SlashCommand) => Promise<{ readonly handled: false } | { readonly handled: true; readonly output: SlashOutput }>

/** Parses a line: a command, or `undefined` for a prompt (including `//…`). */
export function parseSlash(line: string): SlashCommand | undefined {
  const text = line.trim()
  if (!text.startsWith('/') || text.startsWith('//')) return undefined
  const [head = '', ...args] = text.slice(1).split(/\s+/)
  return { name: head.toLowerCase(), args }
}

/** The prompt text of a non-command line (`//x` becomes `/x`). */
export function promptText(line: string): string {
  return line.trimStart().startsWith('//') ? line.trimStart().slice(1) : line
}

/** The commands of one chat. */
export class SlashRegistry {
  readonly #commands = new Map<string, SlashCommandSpec>()
  readonly #aliases = new Map<string, string>()
  #fallback: SlashFallback | undefined

  /** Adds a command (a later one with the same name replaces it); returns a remover. */
  register(spec: SlashCommandSpec): () => void {
    this.#commands.set(spec.name, spec)
    for (const alias of spec.aliases ?? []) this.#aliases.set(alias, spec.name)
    return () => {
      if (this.#commands.get(spec.name) === spec) this.#commands.delete(spec.name)
    }
  }

  /** Sets what runs for a name no command has (the last one set wins). */
  setFallback(fallback: SlashFallback): void {
    this.#fallback = fallback
  }

  /** The command a name or alias refers to. */
  get(name: string): SlashCommandSpec | undefined {
    return this.#commands.get(this.#aliases.get(name) ?? name)
  }

  /** Every command, by name. */
  list(): SlashCommandSpec[] {
    return [...this.#commands.values()].toSorted((a, b) => a.name.localeCompare(b.name))
  }

  /** Runs a parsed command and shows what it returns. */
  async run(command: SlashCommand, context: SlashContext): Promise<void> {
    const spec = this.get(command.name)
    const fallen = spec === undefined && this.#fallback !== undefined ? await this.#fallback(context, command) : { handled: false as const }
    if (fallen.handled) {
      if (fallen.output !== undefined) context.view.lines(typeof fallen.output === 'string' ? [fallen.output] : fallen.output)
      return
    }
    if (spec === undefined) {
      context.view.lines([`unknown command /${oneLine(command.name, 40)} (type /help for the list)`], 'warning')
      return
    }
    const output = await spec.run(context, command.args)
    if (output === undefined) return
    context.view.lines(typeof output === 'string' ? [output] : output)
  }
}
