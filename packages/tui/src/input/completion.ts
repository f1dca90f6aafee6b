/**
 * Tab completion for the editor: slash commands from the registry (with their help line), paths
 * relative to the working directory, and `@path` file references as @dsh/tools'
 * `mentionSuggestions` completes them (the typed directory's entries, then fuzzy matches over the
 * project; a directory completes to `@dir/` so Tab goes on into it).
 */
import { CombinedAutocompleteProvider, type AutocompleteItem, type AutocompleteProvider, type AutocompleteSuggestions } from '@mariozechner/pi-tui'
import type { SlashRegistry } from '../slash/slash-registry.ts'
import { FileIndex, listedSuggestions, mentionPrefix, mentionSuggestions } from '@dsh/tools'

/** The `@partial` token that ends `text`, if any. */
export const referencePrefix = mentionPrefix

/** `@` completions of a partial reference, from the directory it names. */
export const referenceSuggestions = (cwd: string, prefix: string): AutocompleteItem[] => listedSuggestions(cwd, prefix)

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
