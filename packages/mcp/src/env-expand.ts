/**
 * `${VAR}` and `${VAR:-default}` expansion in `.mcp.json`-shaped files (command, args, env values,
 * url, headers). An unset variable without a default is an error naming it; `$` not followed by
 * `{` is kept as it is.
 */

/** Expands the variables in `text`; returns the text or the name of an unset variable. */
export function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>): { readonly text: string } | { readonly missing: string } {
  let missing: string | undefined
  const out = text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback: string | undefined) => {
    const value = env[name]
    if (value !== undefined && value !== '') return value
    if (fallback !== undefined) return fallback
    if (value !== undefined) return value
    missing ??= name
    return ''
  })
  return missing === undefined ? { text: out } : { missing }
}
