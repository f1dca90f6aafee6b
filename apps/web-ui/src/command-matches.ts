/**
 * `/name` completion of the Message textbox: while the draft is a slash and a partial name (no
 * space yet), the session's commands whose names start with it.
 */

/** One command the server offers. */
export interface CommandItem {
  readonly name: string
  readonly description: string
  readonly hint?: string
}

const PARTIAL = /^\/([A-Za-z0-9_.:-]*)$/

/** The commands `draft` may be completed to (none when it is no partial `/name`). */
export function commandMatches(draft: string, commands: readonly CommandItem[]): CommandItem[] {
  const partial = PARTIAL.exec(draft)?.[1]
  if (partial === undefined) return []
  return commands.filter((command) => command.name.startsWith(partial) && command.name !== partial)
}
