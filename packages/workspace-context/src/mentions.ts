/**
 * `@path` mentions in what the person typed (`fix @packages/api/src/server.ts`, `look at
 * @packages/web`, `@"docs/a b.md"`): each names a file or directory that joins the session like a
 * touch, so the instruction files of its directory chain below the working directory arrive at
 * the first step of the turn, before the model has read anything (as Claude Code's `@` references
 * add the CLAUDE.md files of the file's directories). A mention is a word that starts with `@`
 * after the start of the text or whitespace (an address such as `me@example.com` is not one);
 * closing punctuation after it is not part of the path. Only paths that exist count; the rules of
 * a touch decide which directories join (below the cwd, inside the project root). What a mention
 * is (`mentionTokens`) is runtime's, whose turn runner also sends a mentioned file's contents.
 */
import { sep } from 'node:path'
import type { FileSystemPort, UserMessage } from '@dsh/contracts'
import { mentionTokens, typedText } from '@dsh/runtime'

/**
 * The touch paths of the mentions in `messages`: a file's canonical path, and for a directory a
 * path inside it (so the directory itself joins). A mention that names nothing, or that cannot be
 * examined, is left out: it stays text for the model. Rethrows only cancellation.
 */
export async function mentionedPaths(fs: FileSystemPort, cwd: string, messages: readonly UserMessage[], signal: AbortSignal): Promise<string[]> {
  const paths: string[] = []
  for (const token of mentionTokens(typedText(messages))) {
    try {
      const target = await fs.resolve(token, { cwd, signal })
      const info = await fs.stat(target.path, signal)
      if (info === undefined) continue
      // `dir/.` (not normalised away): its parent, the directory itself, is the first to join.
      paths.push(info.type === 'directory' ? `${target.path}${sep}.` : target.path)
    } catch (error) {
      // A mention that cannot be examined joins nothing; the model sees it as the person wrote it.
      if (signal.aborted) throw error
    }
  }
  return paths
}
