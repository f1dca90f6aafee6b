/**
 * A fast path for the front matter almost every skill has: one `key: value` per line with plain
 * one-line values. Such a block means the same to every YAML parser, so it is read directly;
 * anything else (quotes, lists, nesting, comments, numbers, nulls, multi-line values, duplicate
 * keys, …) returns `undefined` and goes to the `yaml` package. Parsing YAML costs far more than
 * reading the file, and discovery parses every skill of the workspace.
 */

const LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$/
/** First characters with a meaning in YAML. */
export const SPECIAL_START = /^[-'"[\]{}>|*&!%@`#,?:~]/
/** Plain scalars YAML reads as something other than a string, except `true` and `false`. */
const NOT_STRING = /^(?:[-+]?(?:\d|\.\d)|[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$|(?:null|Null|NULL|True|TRUE|False|FALSE)$)/

/** The fields of `text` when it is a block of simple lines, else `undefined`. */
export function simpleFrontMatter(text: string): Record<string, unknown> | undefined {
  const fields: Record<string, unknown> = {}
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line.trim() === '') continue
    const match = LINE.exec(line)
    const key = match?.[1]
    const value = match?.[2]?.trim()
    if (key === undefined || value === undefined || value === '' || Object.hasOwn(fields, key)) return undefined
    if (SPECIAL_START.test(value) || value.includes(': ') || value.includes(' #') || value.endsWith(':') || value.includes('\t') || NOT_STRING.test(value)) return undefined
    fields[key] = value === 'true' ? true : value === 'false' ? false : value
  }
  return fields
}
