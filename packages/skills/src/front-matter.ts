/**
 * SKILL.md and command front matter: a leading `---` block of YAML, then the body. A skill needs
 * `name` (matching its folder, lowercase words joined by single hyphens, at most 64 characters) and
 * `description` (at most 1,024 characters); Claude Code's extra fields are kept, unknown ones are
 * ignored. Every failure is one short problem text, never a throw.
 */
import { parse } from 'yaml'
import { quoteColonValues } from './colon-values.ts'
import { simpleFrontMatter } from './simple-yaml.ts'
import type { SkillMeta } from './types.ts'

/** Allowed skill names. */
export const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/
export const MAX_NAME = 64
export const MAX_DESCRIPTION = 1024
/** Longest front matter block parsed (characters between the `---` lines). */
export const MAX_FRONT_MATTER = 16_384

/**
 * A split file: its front matter fields (empty without a block) and body, and the text fields whose
 * unquoted `: ` strict YAML refused and that were read as plain text (colon-values.ts).
 */
export type Split = { readonly ok: true; readonly fields: Readonly<Record<string, unknown>>; readonly body: string; readonly hasBlock: boolean; readonly quoted: readonly string[] } | { readonly ok: false; readonly problem: string }

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

const OPEN = /^\uFEFF?---[ \t]*\r?\n/
const CLOSE = /^---[ \t]*$/m

/** Splits `text` into front matter and body. */
export function splitFrontMatter(text: string): Split {
  const open = OPEN.exec(text)
  if (open === null) return { ok: true, fields: {}, body: text, hasBlock: false, quoted: [] }
  const rest = text.slice(open[0].length)
  const close = CLOSE.exec(rest)
  if (close === null) return { ok: false, problem: 'front matter is not closed by a --- line' }
  const yamlText = rest.slice(0, close.index)
  // The yaml package takes seconds over a few hundred KiB of keys (its duplicate check is quadratic);
  // no skill needs more than a few KiB of fields, so a hostile file costs a bounded parse at most.
  if (yamlText.length > MAX_FRONT_MATTER) return { ok: false, problem: `front matter is longer than ${MAX_FRONT_MATTER} characters` }
  const body = rest.slice(close.index + close[0].length).replace(/^\r?\n/, '')
  const simple = simpleFrontMatter(yamlText)
  if (simple !== undefined) return { ok: true, fields: simple, body, hasBlock: true, quoted: [] }
  let parsed = parseYaml(yamlText)
  let quoted: readonly string[] = []
  if (!parsed.ok) {
    const repaired = quoteColonValues(yamlText)
    const again = repaired === undefined ? undefined : parseYaml(repaired.text)
    // What is still wrong after the quoting is what the author must fix (the lines are the same).
    if (again === undefined || !again.ok) return { ok: false, problem: `bad YAML in front matter: ${(again ?? parsed).message}` }
    parsed = again
    quoted = repaired?.fields ?? []
  }
  const { value } = parsed
  if (value === null || value === undefined) return { ok: true, fields: {}, body, hasBlock: true, quoted }
  if (!isRecord(value)) return { ok: false, problem: 'front matter is not a mapping of fields' }
  return { ok: true, fields: value, body, hasBlock: true, quoted }
}

function parseYaml(yamlText: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string } {
  try {
    // logLevel 'error': a warning (an unknown tag) must not reach stderr, where the yaml package would
    // print it with the file's raw text (escape sequences included); errors still throw.
    return { ok: true, value: parse(yamlText, { logLevel: 'error' }) }
  } catch (error) {
    // The YAML error's first line says where (its code frame follows the colon it ends with); the file is broken, the other skills still load.
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '').replace(/:$/, '') : String(error)
    return { ok: false, message }
  }
}

/** The warning line of a file whose text fields were read as plain text (colon-values.ts). */
export const quotedLine = (kind: 'skill' | 'command', file: string, fields: readonly string[]): string => `${kind} ${file}: unquoted ": " in ${fields.join(' and ')} (invalid YAML); read as plain text; quote the value so stricter tools load it too`

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined)

function toolList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((item) => item.trim())
  if (typeof value !== 'string') return []
  // `Bash(git add:*), Read` and `Read Grep` are both in use: split on commas outside parentheses, else on spaces.
  const parts = value.includes(',') ? value.split(/,(?![^(]*\))/) : value.split(/\s+(?![^(]*\))/)
  return parts.map((part) => part.trim()).filter((part) => part !== '')
}

/** Result of reading a skill's front matter. */
export type MetaResult = { readonly ok: true; readonly meta: SkillMeta; readonly body: string } | { readonly ok: false; readonly problem: string }

/** Validates the front matter of the skill in folder `folderName`. */
export function readSkillMeta(content: string, folderName: string): MetaResult {
  const split = splitFrontMatter(content)
  if (!split.ok) return split
  if (!split.hasBlock) return { ok: false, problem: 'no front matter (a --- block with name and description)' }
  const { fields } = split
  const name = text(fields['name'])
  if (name === undefined || name.trim() === '') return { ok: false, problem: 'missing name' }
  if (name.length > MAX_NAME) return { ok: false, problem: `name is longer than ${MAX_NAME} characters` }
  if (!SKILL_NAME.test(name)) return { ok: false, problem: `name ${JSON.stringify(name)} is not lowercase words joined by single hyphens` }
  if (name !== folderName) return { ok: false, problem: `name ${JSON.stringify(name)} does not match its folder ${JSON.stringify(folderName)}` }
  const description = text(fields['description'])?.trim()
  if (description === undefined || description === '') return { ok: false, problem: 'missing description' }
  if (description.length > MAX_DESCRIPTION) return { ok: false, problem: `description is longer than ${MAX_DESCRIPTION} characters` }
  const whenToUse = text(fields['when_to_use'])?.trim()
  const argumentHint = text(fields['argument-hint'])?.trim()
  const meta: SkillMeta = {
    name,
    description,
    ...(whenToUse === undefined || whenToUse === '' ? {} : { whenToUse }),
    ...(argumentHint === undefined || argumentHint === '' ? {} : { argumentHint }),
    disableModelInvocation: fields['disable-model-invocation'] === true,
    userInvocable: fields['user-invocable'] !== false,
    allowedTools: toolList(fields['allowed-tools']),
    extra: fields,
    ...(split.quoted.length === 0 ? {} : { quotedFields: split.quoted }),
  }
  return { ok: true, meta, body: split.body }
}
