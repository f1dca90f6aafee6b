/**
 * Splits a bash command line into its simple commands, for rule matching. The split happens at
 * the control operators `;`, `&&`, `||`, `|`, `|&`, `&` and newlines that stand outside quotes;
 * `&` inside a redirection (`2>&1`, `&>file`) does not split. Command and process substitution
 * (`$(…)`, backticks, `<(…)`, `>(…)`) is reported, and in `deep` mode its contents become simple
 * commands of their own (what a deny rule must also see). Comments (`#` at the start of a word)
 * are dropped and `$'…'` quotes read with their backslash escapes, as bash reads them; a
 * here-document (`<<`) or a quote left open makes the line opaque. This is a conservative reading
 * of shell syntax for matching, not a parser: whatever it cannot read plainly never counts as allowed.
 */

/** The simple commands of a command line. */
export interface ShellReading {
  /** Simple commands, trimmed, whitespace collapsed, empty ones dropped. */
  readonly commands: readonly string[]
  /** True when the line contains command or process substitution outside single quotes. */
  readonly substitutes: boolean
  /** True when the line has syntax this reading does not follow (a here-document, a quote left open). */
  readonly opaque: boolean
}

/** Characters after which a `#` begins a word, and so a comment. */
const wordBreak = /[\s;&|()<>]/

const collapse = (text: string): string => text.trim().replace(/\s+/g, ' ')

/** Reads `line`; `deep` also splits at substitution boundaries so their contents are commands too. */
export function readShell(line: string, deep = false): ShellReading {
  const commands: string[] = []
  let current = ''
  let quote: '"' | "'" | "$'" | undefined
  let substitutes = false
  let opaque = false
  const cut = (): void => {
    const text = collapse(current)
    if (text !== '') commands.push(text)
    current = ''
  }
  for (let i = 0; i < line.length; i += 1) {
    const char = line.charAt(i)
    const next = line.charAt(i + 1)
    if (quote === "'") {
      current += char
      if (char === "'") quote = undefined
      continue
    }
    if (quote === "$'") {
      // ANSI-C quoting: a backslash escapes the next character, `\'` included.
      current += char === '\\' ? char + next : char
      if (char === '\\') i += 1
      else if (char === "'") quote = undefined
      continue
    }
    if (char === '\\') {
      current += char + next
      i += 1
      continue
    }
    const opensSubstitution = (char === '$' && next === '(') || char === '`' || (quote === undefined && (char === '<' || char === '>') && next === '(')
    if (opensSubstitution) {
      substitutes = true
      if (deep) {
        cut()
        if (char !== '`') i += 1
        continue
      }
    }
    if (deep && char === ')') {
      cut()
      continue
    }
    if (quote === '"') {
      current += char
      if (char === '"') quote = undefined
      continue
    }
    if (char === '$' && next === "'") {
      quote = "$'"
      current += char + next
      i += 1
      continue
    }
    if (char === '"' || char === "'") {
      quote = char
      current += char
      continue
    }
    if (char === '#' && (i === 0 || wordBreak.test(line.charAt(i - 1)))) {
      // A comment runs to the end of the line; the newline still separates commands.
      while (i + 1 < line.length && line.charAt(i + 1) !== '\n') i += 1
      continue
    }
    if (char === '<' && next === '<') {
      // `<<<` is a here-string (one word, read as usual); `<<` starts a here-document, whose body
      // lines are not commands: this reading cannot follow it.
      if (line.charAt(i + 2) === '<') {
        current += '<<<'
        i += 2
        continue
      }
      opaque = true
    }
    if (char === '\n' || char === ';') {
      cut()
      continue
    }
    if (char === '|') {
      cut()
      if (next === '|' || next === '&') i += 1
      continue
    }
    if (char === '&') {
      const previous = line.charAt(i - 1)
      // `2>&1`, `>&2`, `&>file`, `&>>file` are redirections, not control operators.
      if (previous === '>' || previous === '<' || next === '>') {
        current += char
        continue
      }
      cut()
      if (next === '&') i += 1
      continue
    }
    current += char
  }
  cut()
  return { commands, substitutes, opaque: opaque || quote !== undefined }
}
