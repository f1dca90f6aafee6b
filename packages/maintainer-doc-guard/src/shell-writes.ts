/**
 * Which files a shell command writes, judged per statement from the text alone:
 * - every output redirection target (`> f`, `>> f`, `2> f`, PowerShell included);
 * - POSIX `cp`, `ln`, `install`: the last path operand (the destination); `mv`, `rm`, `tee`,
 *   `truncate`, `patch`, `touch`, `rmdir`: every path operand; `dd`: its `of=` file; `sed -i` /
 *   `perl -i`: every path operand;
 * - PowerShell write cmdlets (Set-Content, Out-File, Copy-Item, Remove-Item, … and aliases):
 *   every path token of the statement (coarse: `Copy-Item a b` counts both).
 * Blind spots: writes made by a program the command runs (`node apply.mjs`, `python x.py`), paths
 * held in variables assigned earlier (`f=plan.md; echo x > $f`), paths built by command
 * substitution or globbing, and directories changed with `cd` before the write.
 */
import { absoluteToken, isPathToken, pathTokens, POSIX_WRITE_VERBS, POWERSHELL_WRITE_VERBS } from './shell-paths.ts'
import { splitStatements, type ShellDialect, type ShellStatement } from './shell-statements.ts'

const DESTINATION_ONLY: ReadonlySet<string> = new Set(['cp', 'ln', 'install'])
const IN_PLACE: ReadonlySet<string> = new Set(['sed', 'perl'])

function posixWrites(statement: ShellStatement): string[] {
  const index = statement.words.findIndex((word) => POSIX_WRITE_VERBS.has(word))
  const verb = statement.words[index]
  if (verb === undefined) return []
  const rest = statement.words.slice(index + 1)
  if (verb === 'dd') return rest.filter((word) => word.startsWith('of=')).map((word) => word.slice(3))
  if (IN_PLACE.has(verb)) return rest.some((word) => /^-[a-zA-Z]*i/u.test(word)) ? pathTokens(rest, 'posix') : []
  const operands = pathTokens(rest, 'posix')
  if (DESTINATION_ONLY.has(verb)) return operands.slice(-1)
  return operands
}

function powershellWrites(statement: ShellStatement): string[] {
  return statement.words.some((word) => POWERSHELL_WRITE_VERBS.has(word.toLowerCase())) ? pathTokens(statement.words, 'powershell') : []
}

/** One written path with the statement that writes it. */
export interface ShellWrite {
  /** Absolute path (Windows paths keep their drive, with `/` separators). */
  readonly path: string
  /** The statement's source text, for messages. */
  readonly statement: string
}

/** The files `command` writes, in statement order. */
export function shellWrites(command: string, dialect: ShellDialect, cwd: string): ShellWrite[] {
  const out: ShellWrite[] = []
  for (const statement of splitStatements(command, dialect)) {
    const tokens = [...statement.writesTo.filter(isPathToken), ...(dialect === 'posix' ? posixWrites(statement) : powershellWrites(statement))]
    for (const token of new Set(tokens)) out.push({ path: absoluteToken(token, cwd), statement: statement.text })
  }
  return out
}
