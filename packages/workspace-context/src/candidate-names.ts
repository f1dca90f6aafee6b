/**
 * Candidate file names: a configured entry is used only when it is exactly one portable path
 * component, so configuration can never point discovery at another directory (or, on Windows,
 * at a device or an alternate data stream). Rejected entries are dropped, never repaired.
 */

const RESERVED_STEM = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/iu

const isControl = (code: number): boolean => code <= 0x1f || (code >= 0x7f && code <= 0x9f)

/** True when `name` is a single, portable, same-directory file name. */
export function isSameDirectoryName(name: string): boolean {
  if (name === '' || name === '.' || name === '..') return false
  if (name.includes('/') || name.includes('\\') || name.includes(':')) return false
  for (const ch of name) if (isControl(ch.codePointAt(0) ?? 0)) return false
  if (name.endsWith('.') || name.endsWith(' ') || name.trim() !== name) return false
  return !RESERVED_STEM.test(name)
}

/** Keeps valid names in their configured order, first occurrence only. */
export function filterCandidateNames(names: readonly string[]): string[] {
  const kept: string[] = []
  for (const name of names) if (isSameDirectoryName(name) && !kept.includes(name)) kept.push(name)
  return kept
}
