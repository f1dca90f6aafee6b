/**
 * `@path` mentions in what the person typed (`fix @packages/api/src/server.ts`, `@"docs/a b.md"`):
 * a word that starts with `@` at the start of the text or after whitespace (an address such as
 * `me@example.com` is not one), the path as written, closing punctuation after it left out. Shared
 * by workspace-context (a mention joins its directories as a touch would) and the turn runner
 * (a mentioned file's contents go with the prompt: mention-attachments.ts).
 */
import type { UserMessage } from '@dsh/contracts'

/** At most this many mentions of one prompt are looked at. */
export const MAX_MENTIONS = 20

const MENTION = /(?:^|\s)@(?:"([^"\n]+)"|([^\s"]+))/g
const TRAILING = /[.,;:!?)\]}'`]+$/

/** The mentioned paths of `text`, as written, in order, without repeats. */
export function mentionTokens(text: string): string[] {
  const tokens: string[] = []
  for (const match of text.matchAll(MENTION)) {
    const token = match[1] ?? (match[2] ?? '').replace(TRAILING, '')
    if (token !== '' && !tokens.includes(token)) tokens.push(token)
    if (tokens.length === MAX_MENTIONS) break
  }
  return tokens
}

/** The text the person typed in `messages` (their own prompts; instruction files, notices and hooks' context are not theirs). */
export function typedText(messages: readonly UserMessage[]): string {
  return messages
    .filter((message) => message.source.kind === 'user')
    .flatMap((message) => message.content.map((block) => (block.type === 'text' ? block.text : '')))
    .join('\n')
}
