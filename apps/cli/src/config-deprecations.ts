/**
 * Config keys that were renamed, still read under their old names so an existing config file keeps
 * working: each old key is moved to its new name before validation, with one warning naming the
 * file, both keys and what to do. When both names are set the new one wins and the old one is
 * ignored, also with a warning. Renamed so far: `model.timeoutMs` → `model.connectTimeoutMs`
 * (same meaning: how long a request waits for its response to start).
 */

/** One renamed key inside a top-level section. */
interface Renamed {
  readonly section: string
  readonly from: string
  readonly to: string
}

const renamed: readonly Renamed[] = [{ section: 'model', from: 'timeoutMs', to: 'connectTimeoutMs' }]

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** `value` with every renamed key under its new name; `warn` gets one line per old key found. */
export function renameDeprecatedKeys(value: unknown, file: string, warn: (line: string) => void): unknown {
  if (!isRecord(value)) return value
  let result = value
  for (const { section, from, to } of renamed) {
    const part = result[section]
    if (!isRecord(part) || !(from in part)) continue
    const { [from]: old, ...rest } = part
    if (to in part) {
      warn(`${file}: ${section}.${from} is the old name of ${section}.${to}, which is also set; ignoring ${section}.${from} (remove it)`)
      result = { ...result, [section]: rest }
      continue
    }
    warn(`${file}: ${section}.${from} is deprecated; reading it as ${section}.${to} (rename it)`)
    result = { ...result, [section]: { ...rest, [to]: old } }
  }
  return result
}
