/**
 * The line that says a project's hooks did not run: a repository's `.claude/settings.json` or
 * `.dsh/settings.json` with hooks that `dsh hooks trust` has not pinned (or that changed since) is
 * listed but never run, and a person who copied a guard hook from Claude Code must not believe it
 * is in force. One line per file, naming its events.
 */
import type { HookSet } from './hook-set.ts'

/** One warning line per project file whose hooks are not trusted, in the order the files were read. */
export function untrustedHookLines(set: HookSet): string[] {
  const events = new Map<string, string[]>()
  for (const entry of set.all) {
    if (entry.source.kind !== 'project' || entry.source.trusted) continue
    const named = events.get(entry.source.file) ?? []
    if (!named.includes(entry.event)) named.push(entry.event)
    events.set(entry.source.file, named)
  }
  return [...events].map(([file, names]) => `${file} defines hooks (${names.join(', ')}) that do not run until you trust the file: dsh hooks trust, or /hooks trust in dsh chat (dsh hooks list shows them)`)
}
