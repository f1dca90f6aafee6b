/**
 * What `@` completes to in every front end (the chat's editor, the web page's Message box): the
 * entries of the directory the typed path names first (directories first; a directory completes
 * to `@dir/` so completion goes on into it; ignored files included, hidden ones only when the
 * typed name starts with a dot; never `node_modules`), then the project's files and directories
 * that match it fuzzily (file-index.ts, fuzzy-rank.ts: `@srvts` finds `src/server.ts`), at most
 * {@link MAX_MENTION_SUGGESTIONS} in all. A path with whitespace completes quoted
 * (`@"docs/a b.md"`), as mentions are written.
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { rankPaths } from './fuzzy-rank.ts'

/** Most `@` suggestions at once. */
export const MAX_MENTION_SUGGESTIONS = 30

/** One suggestion: what replaces the typed `@partial`, and how to show it. */
export interface MentionSuggestion {
  /** The mention as inserted (`@src/app.ts`, `@src/`, `@"a b.md"`). */
  readonly value: string
  /** The last segment (`app.ts`, `lib/`). */
  readonly label: string
  /** The directory part (`src/`), or '' at the top. */
  readonly description: string
}

/** The `@partial` token that ends `text`, if any. */
export function mentionPrefix(text: string): string | undefined {
  return /(?:^|\s)(@[^\s@]*)$/.exec(text)?.[1]
}

/** A mention of `path` as it is inserted (quoted when it holds whitespace). */
const mention = (path: string): string => (/\s/.test(path) ? `@"${path}"` : `@${path}`)

/** The entries of the directory `prefix` (`@dir/stem`) names under `cwd` that start with its stem. */
export function listedSuggestions(cwd: string, prefix: string): MentionSuggestion[] {
  const partial = prefix.slice(1)
  const slash = partial.lastIndexOf('/')
  const dir = slash < 0 ? '' : partial.slice(0, slash + 1)
  const stem = partial.slice(slash + 1)
  let entries
  try {
    entries = readdirSync(join(cwd, dir), { withFileTypes: true })
  } catch {
    // No such directory (yet), or not one: nothing to list.
    return []
  }
  return entries
    .filter((entry) => entry.name.startsWith(stem) && (stem.startsWith('.') || !entry.name.startsWith('.')) && entry.name !== 'node_modules')
    .toSorted((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name))
    .slice(0, MAX_MENTION_SUGGESTIONS)
    .map((entry) => {
      const path = `${dir}${entry.name}${entry.isDirectory() ? '/' : ''}`
      return { value: mention(path), label: `${entry.name}${entry.isDirectory() ? '/' : ''}`, description: dirname(`${path}x`) === '.' ? '' : dir }
    })
}

/** The suggestion of an indexed path (`dir/` for a directory). */
function indexedSuggestion(path: string): MentionSuggestion {
  const directory = path.endsWith('/')
  const trimmed = directory ? path.slice(0, -1) : path
  const slash = trimmed.lastIndexOf('/')
  return { value: mention(path), label: `${trimmed.slice(slash + 1)}${directory ? '/' : ''}`, description: slash < 0 ? '' : trimmed.slice(0, slash + 1) }
}

/** Every suggestion for `prefix` (`@partial`): the listing, then fuzzy matches from `index` not already listed. */
export async function mentionSuggestions(cwd: string, prefix: string, index: { paths(): Promise<readonly string[]> }): Promise<MentionSuggestion[]> {
  const listed = listedSuggestions(cwd, prefix)
  const query = prefix.slice(1)
  if (query === '' || listed.length >= MAX_MENTION_SUGGESTIONS) return listed
  // What is typed already is no suggestion (`@src/` does not offer `src/` again).
  const seen = new Set([prefix, ...listed.map((item) => item.value)])
  const ranked = rankPaths(query, await index.paths(), MAX_MENTION_SUGGESTIONS).map(indexedSuggestion).filter((item) => !seen.has(item.value))
  return [...listed, ...ranked].slice(0, MAX_MENTION_SUGGESTIONS)
}
