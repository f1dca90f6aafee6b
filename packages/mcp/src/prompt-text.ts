/**
 * MCP prompts as slash commands: the words typed after `/mcp__<server>__<prompt>` become the
 * prompt's arguments (`name=value` words by name, the other words in the declared order, the last
 * declared argument taking the rest of the line), and the messages of `prompts/get` become one
 * user message (their contents in order, a non-user message introduced by its role).
 */
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/client'
import { blockText } from './result-text.ts'

/** The arguments of `prompt` from the typed words, or the one line saying what is missing. */
export function promptArguments(prompt: Prompt, typed: string): { readonly ok: true; readonly args: Record<string, string> } | { readonly ok: false; readonly problem: string } {
  const declared = prompt.arguments ?? []
  const args: Record<string, string> = {}
  const positional: string[] = []
  for (const word of typed.trim().split(/\s+/).filter((item) => item !== '')) {
    const named = /^([A-Za-z0-9_.-]+)=(.*)$/.exec(word)
    if (named !== null && declared.some((argument) => argument.name === named[1])) args[named[1] ?? ''] = named[2] ?? ''
    else positional.push(word)
  }
  const open = declared.filter((argument) => args[argument.name] === undefined)
  open.forEach((argument, index) => {
    if (index >= positional.length) return
    args[argument.name] = index === open.length - 1 ? positional.slice(index).join(' ') : (positional[index] ?? '')
  })
  if (open.length === 0 && positional.length > 0) return { ok: false, problem: `takes no more words (arguments: ${declared.length === 0 ? 'none' : declared.map((argument) => argument.name).join(', ')})` }
  const missing = declared.filter((argument) => argument.required === true && args[argument.name] === undefined)
  if (missing.length > 0) return { ok: false, problem: `needs ${missing.map((argument) => argument.name).join(', ')} (${usageOf(prompt)})` }
  return { ok: true, args }
}

/** `<name> [name]…` of the declared arguments, required ones in angle brackets. */
export function argumentHint(prompt: Prompt): string | undefined {
  const declared = prompt.arguments ?? []
  if (declared.length === 0) return undefined
  return declared.map((argument) => (argument.required === true ? `<${argument.name}>` : `[${argument.name}]`)).join(' ')
}

function usageOf(prompt: Prompt): string {
  return argumentHint(prompt) ?? 'no arguments'
}

/** The user message a `prompts/get` result expands to. */
export function promptMessageText(result: GetPromptResult): string {
  return result.messages
    .map((message) => {
      const text = blockText(message.content)
      return message.role === 'user' ? text : `[${message.role}]\n${text}`
    })
    .join('\n\n')
}
