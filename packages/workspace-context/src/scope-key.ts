/**
 * Scope keys: the persisted identity of one instruction slot. The user-global slot is the bare
 * word `user-global`; every project slot starts with `project`, then a NUL, the root-relative
 * directory (`.` for the root, `/`-separated), a NUL, and the slot. File and directory names
 * cannot contain NUL, so no project directory, whatever it is called, collides with the
 * user-global key or with another directory (decision D6).
 *
 * Slots: `base` and `local` under the `first` candidate policy (the winning candidate of each
 * list), `=<candidate name>` under the `all` policy (one slot per candidate).
 */

/** Key of the user-global scope. */
export const USER_GLOBAL_SCOPE = 'user-global'

const SEP = '\u0000'

/** A decoded scope key. */
export type ScopeRef =
  | { readonly kind: 'user-global'; readonly key: string }
  | { readonly kind: 'project'; readonly key: string; readonly dir: string; readonly slot: string }

/** Encodes a project scope. `dir` is root-relative with `/` separators (`.` for the root). */
export function projectScope(dir: string, slot: string): ScopeRef {
  return { kind: 'project', key: `project${SEP}${dir}${SEP}${slot}`, dir, slot }
}

/** The user-global scope. */
export function userGlobalScope(): ScopeRef {
  return { kind: 'user-global', key: USER_GLOBAL_SCOPE }
}

/** True for a root-relative directory this plugin could have written (no `..`, not absolute). */
function isSafeDir(dir: string): boolean {
  if (dir === '.') return true
  if (dir === '' || dir.startsWith('/') || dir.includes('\\') || /^[a-zA-Z]:/u.test(dir)) return false
  return dir.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
}

/** Decodes a persisted key; `undefined` for keys this plugin does not write (ignored, never probed). */
export function decodeScope(key: string): ScopeRef | undefined {
  if (key === USER_GLOBAL_SCOPE) return userGlobalScope()
  const parts = key.split(SEP)
  if (parts.length !== 3 || parts[0] !== 'project') return undefined
  const dir = parts[1] ?? ''
  const slot = parts[2] ?? ''
  if (!isSafeDir(dir) || slot === '') return undefined
  return projectScope(dir, slot)
}

/** Depth-based specificity: user-global 0, root 1, each level below +1; overlays rank above their base. */
export function specificity(scope: ScopeRef): number {
  if (scope.kind === 'user-global') return 0
  const depth = scope.dir === '.' ? 1 : scope.dir.split('/').length + 1
  return depth + (scope.slot === 'local' || scope.slot.includes('.local.') ? 0.5 : 0)
}
