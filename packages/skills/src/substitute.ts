/**
 * Argument substitution in skill and command bodies: `$ARGUMENTS` is the whole argument text,
 * `$1` … `$9` its words (quotes group words; a missing word is empty), `${SKILL_DIR}` the skill's
 * folder. Claude Code's spellings work too, so its skills run unchanged: `${CLAUDE_SKILL_DIR}`,
 * `$ARGUMENTS[N]` (0-based), and — in a body that uses `$0` — 0-based positions (`$0` the first
 * word, `$1` the second), as Claude Code numbers them; a body without `$0` keeps `$1` as the first
 * word, as shell scripts and older command files do. A body that mentions no argument gets
 * non-empty arguments appended on a line of their own, so they are never lost. Nothing is
 * executed: shell snippets stay text.
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

const PLACEHOLDER = /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$([0-9])(?![0-9])|\$\{(?:CLAUDE_)?SKILL_DIR\}/g
const MENTIONS_ARGUMENTS = /\$ARGUMENTS|\$[0-9](?![0-9])/
const ZERO_BASED = /\$0(?![0-9])/

/** The body with every placeholder replaced. */
export function substitute(body: string, input: Substitution): string {
  const args = input.arguments.trim()
  const words = splitArguments(args)
  const first = ZERO_BASED.test(body) ? 0 : 1
  let out = body.replace(PLACEHOLDER, (match, index: string | undefined, digit: string | undefined) => {
    if (index !== undefined) return words[Number(index)] ?? ''
    if (match === '$ARGUMENTS') return args
    if (digit !== undefined) return Number(digit) < first ? match : (words[Number(digit) - first] ?? '')
    return input.skillDir ?? match
  })
  if (!MENTIONS_ARGUMENTS.test(body) && args !== '') out = `${out.replace(/\s+$/, '')}\n\nARGUMENTS: ${args}\n`
  return out
}
