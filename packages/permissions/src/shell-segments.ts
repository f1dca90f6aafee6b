/**
 * Splits a bash command line into its simple commands, for rule matching. The split happens at
 * the control operators `;`, `&&`, `||`, `|`, `|&`, `&` and newlines that stand outside quotes;
 * `&` inside a redirection (`2>&1`, `&>file`) does not split. Command and process substitution
 * (`$(…)`, backticks, `<(…)`, `>(…)`) is reported, and in `deep` mode its contents become simple
 * commands of their own (what a deny rule must also see). This is a conservative reading of shell
 * syntax for matching, not a parser: whatever it cannot read plainly never counts as allowed.
 */

/** The simple commands of a command line. */
export interface ShellReading {
  /** Simple commands, trimmed, whitespace collapsed, empty ones dropped. */
  readonly commands: readonly string[]
  /** True when the line contains command or process substitution outside single quotes. */
  readonly substitutes: boolean
}

const collapse = (text: string): string => text.trim().replace(/\s+/g, ' ')

/** Reads `line`; `deep` also splits at substitution boundaries so their contents are commands too. */
export function readShell(line: string, deep = false): ShellReading {
  const commands: string[] = []
  let current = ''
  let quote: '"' | "'" | undefined
  let substitutes = false
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
    if (char === '"' || char === "'") {
      quote = char
      current += char
      continue
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
  return { commands, substitutes }
}

const keywords = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', 'time', '!', '{', '('])
const assignment = /^[A-Za-z_]\w*=\S*$/

/**
 * A simple command without what precedes the program for deny matching: grouping characters,
 * shell keywords and variable assignments (`FOO=1 rm -rf x` → `rm -rf x`).
 */
export function programPart(command: string): string {
  const words = command.replace(/^[({!\s]+/, '').split(' ')
  let start = 0
  while (start < words.length && (keywords.has(words[start] ?? '') || assignment.test(words[start] ?? ''))) start += 1
  return words.slice(start).join(' ')
}
