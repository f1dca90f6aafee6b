/**
 * `--append-system-prompt TEXT` (Claude Code's spelling, repeatable): the person's paragraphs
 * after dsh's own system prompt, in the order given, for every agent of the process (subagents
 * included). Text is taken as it is: the section is one variable, whose value the prompt service
 * inserts without reading `{{…}}` in it again, so braces in the text never name a variable.
 */
import type { Host } from '@dsh/runtime'

const VARIABLE = 'user.appendedSystemPrompt'

/** Registers the paragraphs as the last section of the host's system prompt; nothing for none. */
export function appendToSystemPrompt(host: Host, paragraphs: readonly string[]): void {
  const text = paragraphs.map((paragraph) => paragraph.trim()).filter((paragraph) => paragraph !== '').join('\n\n')
  if (text === '') return
  host.systemPrompt.variable(VARIABLE, () => text)
  host.systemPrompt.section({ name: 'user:append', order: 10_000, text: `{{${VARIABLE}}}` })
}
