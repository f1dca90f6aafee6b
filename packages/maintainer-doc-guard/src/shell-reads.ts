/**
 * Which files a shell command reads, so that `cat`, `head`, `Get-Content` and the like count as
 * reads for the precedent gate and the unread-documents reminder: in a statement whose words
 * include a read verb (matched as a whole word, case-insensitive, so prose such as `type:` never
 * matches and `echo plan.md` reads nothing), every path token after the verb, plus input
 * redirections (`< file`) of any statement. Callers keep only tokens that exist as files.
 */
import { absoluteToken, isPathToken, pathTokens, READ_VERBS } from './shell-paths.ts'
import { splitStatements, type ShellDialect } from './shell-statements.ts'

/** Absolute paths `command` may read. */
export function shellReadCandidates(command: string, dialect: ShellDialect, cwd: string): string[] {
  const out = new Set<string>()
  for (const statement of splitStatements(command, dialect)) {
    for (const token of statement.readsFrom.filter(isPathToken)) out.add(absoluteToken(token, cwd))
    const index = statement.words.findIndex((word) => READ_VERBS.has(word.toLowerCase()))
    if (index < 0) continue
    for (const token of pathTokens(statement.words.slice(index + 1), dialect)) out.add(absoluteToken(token, cwd))
  }
  return [...out]
}
