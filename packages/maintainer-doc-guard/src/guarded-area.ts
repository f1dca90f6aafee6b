/**
 * Guarded infrastructure areas: `gate.guardedGlobs` are plain substrings of the absolute path in
 * POSIX form (`\` read as `/`), not glob patterns; a path that also contains an `exemptGlobs`
 * substring is not guarded. Anything outside these areas is never touched by the precedent gate.
 */

/** The path in the form globs are matched against. */
export const matchForm = (path: string): string => path.replaceAll('\\', '/')

/** True when `path` lies in a guarded area. */
export function isGuarded(path: string, gate: { readonly guardedGlobs: readonly string[]; readonly exemptGlobs: readonly string[] }): boolean {
  const form = matchForm(path)
  const has = (glob: string): boolean => glob !== '' && form.includes(matchForm(glob))
  return gate.guardedGlobs.some(has) && !gate.exemptGlobs.some(has)
}
