/**
 * Argument substitution in skill and command bodies: `$ARGUMENTS` is the whole argument text,
 * `$1` … `$9` its words (quotes group words; a missing word is empty), `${SKILL_DIR}` the skill's
 * folder. A body that mentions neither `$ARGUMENTS` nor `$1…$9` gets non-empty arguments appended
 * on a line of their own, so they are never lost. Nothing is executed: shell snippets stay text.
 */

/** Splits argument text into words: whitespace separates, single or double quotes group. */
export function splitArguments(text: string): string[] {
  const words: string[] = []
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g
  for (const match of text.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3] ?? '')
  return words
}

/** What to substitute. */
export interface Substitution {
  readonly arguments: string
  /** The skill's folder (absent for commands: `${SKILL_DIR}` stays as written). */
  readonly skillDir?: string
}

/** The body with every placeholder replaced. */
export function substitute(body: string, input: Substitution): string {
  const args = input.arguments.trim()
  const words = splitArguments(args)
  const mentionsAll = /\$ARGUMENTS|\$[1-9](?![0-9])/.test(body)
  let out = body.replace(/\$ARGUMENTS|\$([1-9])(?![0-9])|\$\{SKILL_DIR\}/g, (match, digit: string | undefined) => {
    if (match === '$ARGUMENTS') return args
    if (digit !== undefined) return words[Number(digit) - 1] ?? ''
    return input.skillDir ?? match
  })
  if (!mentionsAll && args !== '') out = `${out.replace(/\s+$/, '')}\n\nARGUMENTS: ${args}\n`
  return out
}
