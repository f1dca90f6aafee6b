/**
 * Tab completion for the editor: slash commands from the registry (with their help line), paths
 * relative to the working directory, and `@path` file references completed from directory
 * listings (a directory completes to `@dir/` so Tab goes on into it).
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { CombinedAutocompleteProvider, type AutocompleteItem, type AutocompleteProvider, type AutocompleteSuggestions } from '@mariozechner/pi-tui'
import type { SlashRegistry } from '../slash/slash-registry.ts'

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

/** The editor's completion provider. */
export function chatCompletion(registry: SlashRegistry, cwd: string): AutocompleteProvider {
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
      const items = referenceSuggestions(cwd, prefix)
      return Promise.resolve(items.length === 0 ? null : { items, prefix })
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
