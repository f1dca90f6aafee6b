/**
 * A small, text-only reader of shell command lines (POSIX shells and PowerShell): splits a command
 * into statements at unquoted `;`, newlines, `&&`, `||`, `|` and `&`, and each statement into
 * words (quotes removed) and redirect targets (`>`, `>>`, `2>`, `&>`; `>&2` duplicates a
 * descriptor and names no file; `<` names a file read). It does not expand variables, globs or
 * command substitutions, and backslashes only escape in the POSIX dialect (PowerShell and cmd
 * paths use them as separators).
 */

/** Which quoting rules apply. */
export type ShellDialect = 'posix' | 'powershell'

/** One statement of a command line. */
export interface ShellStatement {
  /** Words in order, quotes removed (redirect targets excluded). */
  readonly words: readonly string[]
  /** Files written by output redirection. */
  readonly writesTo: readonly string[]
  /** Files read by input redirection. */
  readonly readsFrom: readonly string[]
  /** The statement's source text, trimmed. */
  readonly text: string
}

interface Builder {
  words: string[]
  writesTo: string[]
  readsFrom: string[]
  word: string
  started: boolean
  redirect: 'out' | 'in' | 'dup' | undefined
}

const fresh = (): Builder => ({ words: [], writesTo: [], readsFrom: [], word: '', started: false, redirect: undefined })

function flush(b: Builder): void {
  if (!b.started) return
  if (b.redirect === 'out') b.writesTo.push(b.word)
  else if (b.redirect === 'in') b.readsFrom.push(b.word)
  else if (b.redirect === undefined) b.words.push(b.word)
  b.redirect = undefined
  b.word = ''
  b.started = false
}

/** Splits `command` into statements. */
export function splitStatements(command: string, dialect: ShellDialect): ShellStatement[] {
  const out: ShellStatement[] = []
  let b = fresh()
  let start = 0
  const end = (stop: number, next: number): void => {
    flush(b)
    if (b.words.length > 0 || b.writesTo.length > 0 || b.readsFrom.length > 0) {
      out.push({ words: b.words, writesTo: b.writesTo, readsFrom: b.readsFrom, text: command.slice(start, stop).trim() })
    }
    b = fresh()
    start = next
  }
  let quote: '"' | "'" | undefined
  for (let i = 0; i < command.length; i++) {
    const c = command[i] ?? ''
    const next = command[i + 1] ?? ''
    if (quote !== undefined) {
      if (c === quote) quote = undefined
      else if (c === '\\' && quote === '"' && dialect === 'posix' && (next === '"' || next === '\\')) b.word += command[++i] ?? ''
      else b.word += c
      continue
    }
    if (c === '"' || c === "'") {
      quote = c
      b.started = true
    } else if (c === '\\' && dialect === 'posix' && next !== '' && next !== '\n') {
      b.word += command[++i] ?? ''
      b.started = true
    } else if (c === ' ' || c === '\t' || c === '\r' || (c === '\\' && next === '\n')) {
      flush(b)
      if (c === '\\') i++
    } else if (c === ';' || c === '\n') {
      end(i, i + 1)
    } else if (c === '|' || (c === '&' && next === '&')) {
      const stop = i
      if (next === c) i++
      end(stop, i + 1)
    } else if (c === '>') {
      // `2>` / `&>`: the digits or ampersand before `>` name a descriptor, not a word.
      if (/^(?:\d+|&)$/u.test(b.word)) {
        b.word = ''
        b.started = false
      } else flush(b)
      if (next === '>' || next === '|') i++
      if (command[i + 1] === '&') {
        i++
        b.redirect = 'dup'
      } else b.redirect = 'out'
    } else if (c === '<') {
      flush(b)
      b.redirect = 'in'
    } else if (c === '&') {
      end(i, i + 1)
    } else {
      b.word += c
      b.started = true
    }
  }
  end(command.length, command.length)
  return out
}
