/**
 * Tab completion for the editor: slash commands from the registry (with their help line), paths
 * relative to the working directory, and `@path` file references: the entries of the directory
 * the typed path names first (a directory completes to `@dir/` so Tab goes on into it, ignored
 * files included), then the project's files and directories that match it fuzzily (file-index.ts,
 * fuzzy-rank.ts: `@srvts` finds `src/server.ts`). A path with a space completes quoted
 * (`@"docs/a b.md"`), as mentions are written.
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { CombinedAutocompleteProvider, type AutocompleteItem, type AutocompleteProvider, type AutocompleteSuggestions } from '@mariozechner/pi-tui'
import type { SlashRegistry } from '../slash/slash-registry.ts'
import { FileIndex } from './file-index.ts'
import { rankPaths } from './fuzzy-rank.ts'

/** Most `@` suggestions shown at once. */
const maxReferences = 30

/** The `@partial` token that ends `text`, if any. */
export function referencePrefix(text: string): string | undefined {
  return /(?:^|\s)(@[^\s@]*)$/.exec(text)?.[1]
}

/** `@` completions of a partial reference, from the directory it names. */
export function referenceSuggestions(cwd: string, prefix: string): AutocompleteItem[] {
  const partial = prefix.slice(1)
  const slash = partial.lastIndexOf('/')
  const dir = slash < 0 ? '' : partial.slice(0, slash + 1)
  const stem = partial.slice(slash + 1)
  let entries
  try {
    entries = readdirSync(join(cwd, dir), { withFileTypes: true })
  } catch {
    // No such directory (yet): nothing to suggest.
    return []
  }
  return entries
    .filter((entry) => entry.name.startsWith(stem) && (stem.startsWith('.') || !entry.name.startsWith('.')) && entry.name !== 'node_modules')
    .toSorted((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name))
    .slice(0, maxReferences)
    .map((entry) => {
      const path = `${dir}${entry.name}${entry.isDirectory() ? '/' : ''}`
      return { value: `@${path}`, label: `${entry.name}${entry.isDirectory() ? '/' : ''}`, description: dirname(`${path}x`) === '.' ? '' : dir }
    })
}

/** A mention of `path` as the editor inserts it (quoted when it holds whitespace). */
const mention = (path: string): string => (/\s/.test(path) ? `@"${path}"` : `@${path}`)

/** The item of an indexed path (`dir/` for a directory). */
function indexedItem(path: string): AutocompleteItem {
  const directory = path.endsWith('/')
  const trimmed = directory ? path.slice(0, -1) : path
  const slash = trimmed.lastIndexOf('/')
  return { value: mention(path), label: `${trimmed.slice(slash + 1)}${directory ? '/' : ''}`, description: slash < 0 ? '' : trimmed.slice(0, slash + 1) }
}

/**
 * `@` completions: the listing of the directory the partial names, then fuzzy matches from
 * `index` not already listed, at most {@link maxReferences} in all.
 */
export async function mentionSuggestions(cwd: string, prefix: string, index: { paths(): Promise<readonly string[]> }): Promise<AutocompleteItem[]> {
  const listed = referenceSuggestions(cwd, prefix)
  const query = prefix.slice(1)
  if (query === '' || listed.length >= maxReferences) return listed
  const seen = new Set(listed.map((item) => item.value))
  const ranked = rankPaths(query, await index.paths(), maxReferences).map(indexedItem).filter((item) => !seen.has(item.value))
  return [...listed, ...ranked].slice(0, maxReferences)
}

/** The editor's completion provider. */
export function chatCompletion(registry: SlashRegistry, cwd: string): AutocompleteProvider {
  const files = new FileIndex({ cwd })
  const commands = () => registry.list().map((spec) => ({ name: spec.name, description: spec.help }))
  let combined = new CombinedAutocompleteProvider(commands(), cwd, null)
  let known = registry.list().length
  const base = (): CombinedAutocompleteProvider => {
    if (registry.list().length !== known) {
      known = registry.list().length
      combined = new CombinedAutocompleteProvider(commands(), cwd, null)
    }
    return combined
  }
  return {
    getSuggestions: (lines, cursorLine, cursorCol, options): Promise<AutocompleteSuggestions | null> => {
      const before = (lines[cursorLine] ?? '').slice(0, cursorCol)
      const prefix = referencePrefix(before)
      if (prefix === undefined) return base().getSuggestions(lines, cursorLine, cursorCol, options)
      return mentionSuggestions(cwd, prefix, files).then((items) => (items.length === 0 ? null : { items, prefix }))
    },
    applyCompletion: (lines, cursorLine, cursorCol, item, prefix) => {
      if (!prefix.startsWith('@')) return base().applyCompletion(lines, cursorLine, cursorCol, item, prefix)
      const line = lines[cursorLine] ?? ''
      const start = cursorCol - prefix.length
      const suffix = item.value.endsWith('/') ? '' : ' '
      const next = `${line.slice(0, start)}${item.value}${suffix}${line.slice(cursorCol)}`
      return { lines: lines.map((text, index) => (index === cursorLine ? next : text)), cursorLine, cursorCol: start + item.value.length + suffix.length }
    },
    shouldTriggerFileCompletion: (lines, cursorLine, cursorCol) => base().shouldTriggerFileCompletion(lines, cursorLine, cursorCol),
  }
}
