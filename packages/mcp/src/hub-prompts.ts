/**
 * The prompts of a hub's connected servers as slash commands: named like tools
 * (`mcp__<server>__<prompt>`, sorted by server then prompt, collisions numbered), and a typed
 * command expanded through `prompts/get` into the text of one user message. A failure is one line
 * naming the command, never a thrown error.
 */
import type { Prompt } from '@modelcontextprotocol/client'
import { errorMessage } from '@dsh/runtime'
import { argumentHint, promptArguments, promptMessageText } from './prompt-text.ts'
import type { ServerConnection } from './server-connection.ts'
import { oneLine } from './tool-adapter.ts'
import { assignToolNames } from './tool-names.ts'
import type { PromptCommand, PromptExpansion } from './types.ts'

interface NamedPrompt {
  readonly server: string
  readonly tool: string
  readonly item: Prompt
  readonly connection: ServerConnection
  readonly modelName: string
}

function named(connections: Iterable<ServerConnection>): NamedPrompt[] {
  const candidates = [...connections].flatMap((connection) => connection.prompts.map((item) => ({ server: connection.entry.name, tool: item.name, item, connection })))
  return assignToolNames(candidates)
}

/** Every offered prompt as a command, in a stable order. */
export function promptCommands(connections: Iterable<ServerConnection>): PromptCommand[] {
  return named(connections).map((entry) => {
    const hint = argumentHint(entry.item)
    const description = oneLine(entry.item.description) || oneLine(entry.item.title) || `MCP prompt of ${entry.server}`
    return { name: entry.modelName, server: entry.server, prompt: entry.item.name, description, ...(hint === undefined ? {} : { hint }) }
  })
}

/** Expands `/name typed`. */
export async function expandPromptCommand(connections: Iterable<ServerConnection>, name: string, typed: string): Promise<PromptExpansion> {
  const found = named(connections).find((entry) => entry.modelName === name)
  if (found === undefined) return { kind: 'unknown' }
  const args = promptArguments(found.item, typed)
  if (!args.ok) return { kind: 'failed', message: `/${name} ${args.problem}` }
  try {
    return { kind: 'expanded', text: promptMessageText(await found.connection.getPrompt(found.item.name, args.args)) }
  } catch (error) {
    // The server failed or went away: the person is told, and nothing is sent to the model.
    return { kind: 'failed', message: `/${name}: the MCP server "${found.server}" did not return the prompt: ${errorMessage(error).split('\n')[0] ?? ''}` }
  }
}

/** Expands a typed line `/name words` when `name` (any case) is one of the prompts; `unknown` otherwise. */
export async function expandTypedPrompt(connections: Iterable<ServerConnection>, text: string): Promise<PromptExpansion> {
  const match = /^\/(mcp__\S+)(?:\s+([\s\S]*))?$/i.exec(text.trim())
  if (match === null) return { kind: 'unknown' }
  const typed = (match[1] ?? '').toLowerCase()
  const list = [...connections]
  const found = promptCommands(list).find((command) => command.name.toLowerCase() === typed)
  return found === undefined ? { kind: 'unknown' } : expandPromptCommand(list, found.name, match[2] ?? '')
}
