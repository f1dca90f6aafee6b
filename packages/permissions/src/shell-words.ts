/**
 * The words of one simple command as bash would pass them to the program: split at unquoted
 * whitespace, with quotes (`'…'`, `"…"`, `$'…'`) and backslash escapes removed. No expansion
 * happens (`$HOME` stays as written). Used to see through spellings such as `"rm" -rf` or `r\m`
 * when deny rules are matched.
 */

/** Characters a backslash escapes inside double quotes. */
const escapedInDouble = '"\\$`\n'

/** The words of `command`. */
export function shellWords(command: string): string[] {
  const words: string[] = []
  let word = ''
  let started = false
  let quote: '"' | "'" | "$'" | undefined
  for (let i = 0; i < command.length; i += 1) {
    const char = command.charAt(i)
    const next = command.charAt(i + 1)
    if (quote === "'") {
      if (char === "'") quote = undefined
      else word += char
      continue
    }
    if (quote === "$'" || quote === '"') {
      if (char === '\\' && (quote === "$'" || escapedInDouble.includes(next))) {
        word += next
        i += 1
      } else if (char === (quote === '"' ? '"' : "'")) quote = undefined
      else word += char
      continue
    }
    if (/\s/.test(char)) {
      if (started) words.push(word)
      word = ''
      started = false
      continue
    }
    started = true
    if (char === '\\') {
      word += next
      i += 1
    } else if (char === '$' && next === "'") {
      quote = "$'"
      i += 1
    } else if (char === '"' || char === "'") quote = char
    else word += char
  }
  if (started) words.push(word)
  return words
}
