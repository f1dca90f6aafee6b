/**
 * Compiles the model's grep pattern as a JavaScript regular expression: with the `u` flag when
 * the pattern allows it (so `\p{…}` and astral characters work), without it otherwise.
 */

/** A compiled pattern, or the syntax error message to show. */
export type CompiledPattern = { readonly regex: RegExp } | { readonly error: string }

/** Compiles `pattern`; `ignoreCase` adds the `i` flag. Never uses `g` (no `lastIndex` state). */
export function compilePattern(pattern: string, ignoreCase: boolean): CompiledPattern {
  const flags = ignoreCase ? 'i' : ''
  try {
    return { regex: new RegExp(pattern, `${flags}u`) }
  } catch {
    // Not valid in unicode mode (for example `\-` or `\ `); the legacy syntax may still accept it.
  }
  try {
    return { regex: new RegExp(pattern, flags) }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}
