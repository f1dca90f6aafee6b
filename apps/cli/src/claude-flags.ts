/**
 * Claude Code's spellings of three agent options, so a script written for `claude -p` runs with
 * `dsh -p` unchanged: `--allowedTools` and `--disallowedTools` (also `--allowed-tools`,
 * `--disallowed-tools`) are dsh's `--allow` and `--deny` — each value a list of rules separated by
 * commas or spaces outside parentheses (`"Bash(git log:*),Read"`, `"Bash(npm test) Edit"`), in
 * Claude Code's tool names, which dsh's rules read as written — and `--max-turns N` is
 * `--max-steps N`. Both spellings at once must agree.
 */
import { usageError } from './cli-error.ts'

/** The options as commander parsed them (the alias keys next to dsh's). */
export interface ClaudeFlagOptions {
  readonly allow?: readonly string[]
  readonly deny?: readonly string[]
  readonly allowedTools?: readonly string[]
  readonly disallowedTools?: readonly string[]
  readonly maxSteps?: number
  readonly maxTurns?: number
}

/** The rules of one `--allowedTools` value: split on commas and whitespace that are not inside parentheses. */
export function splitToolList(value: string): string[] {
  const rules: string[] = []
  let depth = 0
  let current = ''
  for (const char of value) {
    if (char === '(') depth += 1
    if (char === ')') depth = Math.max(0, depth - 1)
    if (depth === 0 && (char === ',' || /\s/.test(char))) {
      if (current.trim() !== '') rules.push(current.trim())
      current = ''
      continue
    }
    current += char
  }
  if (current.trim() !== '') rules.push(current.trim())
  return rules
}

/** `options` with the aliases folded into `allow`, `deny` and `maxSteps` (and removed). */
export function foldClaudeFlags<T extends ClaudeFlagOptions>(options: T, defaultMaxSteps: number): Omit<T, 'allowedTools' | 'disallowedTools' | 'maxTurns'> {
  const { allowedTools, disallowedTools, maxTurns, ...rest } = options
  const allow = [...(options.allow ?? []), ...(allowedTools ?? []).flatMap(splitToolList)]
  const deny = [...(options.deny ?? []), ...(disallowedTools ?? []).flatMap(splitToolList)]
  // commander fills --max-steps with its default, so only a --max-steps other than the default can disagree.
  if (maxTurns !== undefined && options.maxSteps !== undefined && options.maxSteps !== defaultMaxSteps && options.maxSteps !== maxTurns) {
    throw usageError(`--max-turns ${maxTurns} and --max-steps ${options.maxSteps} disagree; give one of them`)
  }
  return { ...rest, ...(allow.length === 0 ? {} : { allow }), ...(deny.length === 0 ? {} : { deny }), ...(maxTurns === undefined ? {} : { maxSteps: maxTurns }) }
}
