/**
 * The front matter slip most SKILL.md files written for other agents share: a one-line text value
 * holding `: ` (`description: Use when: the user asks about PDFs`), or ending in `:`, which strict
 * YAML rejects as a nested mapping. Peers drop such a skill without a word or with a bare parser
 * error. When the YAML parser has refused a block, the text fields (`description`, `when_to_use`,
 * `argument-hint`) written that way are quoted as the plain text they say and the block is parsed
 * again; the caller names the fields so the author can quote them for stricter tools. Nothing else
 * is guessed: a value that starts with a YAML indicator, holds ` #` (a comment in YAML) or goes on
 * to an indented next line, and every other field, is left as written.
 */
import { SPECIAL_START } from './simple-yaml.ts'

/** The fields whose values are prose, and may be read as such. */
const TEXT_FIELDS: ReadonlySet<string> = new Set(['description', 'when_to_use', 'argument-hint'])

const LINE = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(\S.*?)[ \t]*$/
const needsQuotes = (value: string): boolean => (value.includes(': ') || value.includes(':\t') || value.endsWith(':')) && !SPECIAL_START.test(value) && !value.includes(' #') && !value.includes('\t#')

/** `yamlText` with the text fields that hold an unquoted `: ` quoted, and their names; `undefined` when there is none. */
export function quoteColonValues(yamlText: string): { readonly text: string; readonly fields: readonly string[] } | undefined {
  const lines = yamlText.split('\n')
  const fields: string[] = []
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] ?? ''
    const cr = raw.endsWith('\r') ? '\r' : ''
    const match = LINE.exec(cr === '' ? raw : raw.slice(0, -1))
    const key = match?.[1]
    const value = match?.[2]
    if (key === undefined || value === undefined || !TEXT_FIELDS.has(key) || !needsQuotes(value)) continue
    // A value that goes on below is a multi-line scalar whose lines YAML folds: not a one-line text.
    // (Only the blank run after this line is looked at: linear in the block, however hostile.)
    let next = index + 1
    while (next < lines.length && (lines[next] ?? '').trim() === '') next++
    if (/^[ \t]/.test(lines[next] ?? '')) continue
    lines[index] = `${key}: '${value.replaceAll("'", "''")}'${cr}`
    fields.push(key)
  }
  return fields.length === 0 ? undefined : { text: lines.join('\n'), fields }
}
