/**
 * `@path` completion in the Message box: the `@partial` token that ends at the caret, and the
 * draft with a chosen suggestion in its place (a file is followed by a space; a directory, which
 * ends in `/`, is not, so completion goes on into it). The suggestions come from the server
 * (`GET /api/sessions/:id/mentions`), which ranks them as the chat's editor does.
 */

/** One suggestion as the server sends it. */
export interface MentionItem {
  /** What replaces the token (`@src/app.ts`, `@src/`, `@"a b.md"`). */
  readonly value: string
  readonly label: string
  readonly description: string
}

/** The token before `caret`: `@` and what follows it up to the caret, at the start or after whitespace. */
export function mentionToken(draft: string, caret: number): { readonly prefix: string; readonly start: number } | undefined {
  const match = /(?:^|\s)(@[^\s@]*)$/.exec(draft.slice(0, caret))
  const prefix = match?.[1]
  return prefix === undefined ? undefined : { prefix, start: caret - prefix.length }
}

/** The draft with `value` replacing the token at `start`..`caret`, and where the caret goes. */
export function applyMention(draft: string, start: number, caret: number, value: string): { readonly text: string; readonly caret: number } {
  const insert = value.endsWith('/') ? value : `${value} `
  return { text: `${draft.slice(0, start)}${insert}${draft.slice(caret)}`, caret: start + insert.length }
}
