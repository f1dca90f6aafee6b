/**
 * Which files a shell command writes, judged per statement from the text alone:
 * - every output redirection target (`> f`, `>> f`, `2> f`, PowerShell included);
 * - POSIX `cp`, `ln`, `install`: the last operand (the destination); `mv`, `rm`, `tee`,
 *   `truncate`, `patch`, `touch`, `rmdir`: every operand (options left out; these commands take
 *   only paths, so a bare `rm -rf .docs` counts too); `dd`: its `of=` file; `sed -i` /
 *   `sed --in-place` / `perl -i`: every path token;
 * - PowerShell write cmdlets (Set-Content, Out-File, Copy-Item, Remove-Item, … and aliases):
 *   every path token of the statement (coarse: `Copy-Item a b` counts both), and every
 *   non-parameter word of the cmdlets that take only paths (Remove-Item, Move-Item, Copy-Item,
 *   Rename-Item, New-Item, Clear-Content and their aliases).
 * Blind spots: writes made by a program the command runs (`node apply.mjs`, `python x.py`), paths
 * held in variables assigned earlier (`f=plan.md; echo x > $f`), paths built by command
 * substitution or globbing, and directories changed with `cd` before the write.
 */
import { absoluteToken, isFileOperand, isPathToken, pathTokens, POSIX_WRITE_VERBS, POWERSHELL_PATH_VERBS, POWERSHELL_WRITE_VERBS } from './shell-paths.ts'
import { splitStatements, type ShellDialect, type ShellStatement } from './shell-statements.ts'

const DESTINATION_ONLY: ReadonlySet<string> = new Set(['cp', 'ln', 'install'])
const IN_PLACE: ReadonlySet<string> = new Set(['sed', 'perl'])

function posixWrites(statement: ShellStatement): string[] {
  const index = statement.words.findIndex((word) => POSIX_WRITE_VERBS.has(word))
  const verb = statement.words[index]
  if (verb === undefined) return []
  const rest = statement.words.slice(index + 1)
  if (verb === 'dd') return rest.filter((word) => word.startsWith('of=')).map((word) => word.slice(3))
  if (IN_PLACE.has(verb)) return rest.some((word) => /^-[a-zA-Z]*i/u.test(word) || word.startsWith('--in-place')) ? pathTokens(rest, 'posix') : []
  const operands = rest.filter(isFileOperand)
  if (DESTINATION_ONLY.has(verb)) return operands.slice(-1)
  return operands
}

function powershellWrites(statement: ShellStatement): string[] {
  const verbs = statement.words.map((word) => word.toLowerCase())
  if (!verbs.some((word) => POWERSHELL_WRITE_VERBS.has(word))) return []
  const tokens = pathTokens(statement.words, 'powershell')
  const index = verbs.findIndex((word) => POWERSHELL_PATH_VERBS.has(word))
  if (index < 0) return tokens
  const operands = statement.words.slice(index + 1).flatMap((word) => word.split(',')).filter(isFileOperand)
  return [...tokens, ...operands]
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
