/**
 * Which listed files the search tools keep, applied after the listing (rg's or the walker's) so
 * that ignore rules stay in force: the model's glob (a pattern without "/" matches the file name
 * at any depth, one with "/" the path relative to the searched directory), the `.env` rule, and
 * the secret-path hook.
 */
import picomatch from 'picomatch'

/**
 * The hook point for secret locations: true when a search must not read or list `absolutePath`.
 * The tools know no secret locations of their own; a composition passes the permission layer's
 * check here (see `SearchToolOptions.isSecretPath`).
 */
export type SecretPathCheck = (absolutePath: string) => boolean

/** `options` for a search of `root`: without the per-file secret check when no secret location can be below it. */
export function scopeSecrets<T extends { readonly isSecretPath?: SecretPathCheck; readonly secretsUnder?: (root: string) => boolean }>(options: T, root: string): T {
  if (options.isSecretPath === undefined || options.secretsUnder?.(root) !== false) return options
  const { isSecretPath: _dropped, ...rest } = options
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- T without its optional check is still a T
  return rest as T
}

/**
 * `.env` files hold secrets by convention: a directory search skips `.env` and `.env.*` (but not
 * the `.example`, `.sample` and `.template` variants). Naming the file in `path` searches it.
 */
export function isEnvFile(name: string): boolean {
  if (name !== '.env' && !name.startsWith('.env.')) return false
  return !/\.(example|sample|template)$/.test(name)
}

/**
 * A glob that is a literal suffix after "*", alone or after "**" and a slash ("*.ts", "**" + "/*.d.ts"; no
 * other glob characters, no "/"): on the normalised relative paths a listing gives (no "." or
 * ".." segments, no empty ones) it matches exactly the paths that end with the suffix, so a suffix
 * test replaces picomatch's regular expression, the largest cost of filtering a long listing.
 */
const SUFFIX_GLOB = /^(?:\*\*\/)?\*(\.[\w.-]+)$/

/** The file-name suffix a glob like `*.ts` or `**\/*.ts` stands for (rg can narrow its listing by it), if it is one. */
export function globSuffix(glob: string): string | undefined {
  return SUFFIX_GLOB.exec(glob)?.[1]
}

/** A matcher for the model's glob on `/`-separated paths relative to the searched directory. */
export function globMatcher(glob: string | undefined): (relative: string) => boolean {
  if (glob === undefined) return () => true
  const suffix = SUFFIX_GLOB.exec(glob)?.[1]
  if (suffix !== undefined) return (relative) => relative.endsWith(suffix)
  const matches = picomatch(glob, { dot: true })
  if (glob.includes('/')) return matches
  return (relative) => matches(relative.slice(relative.lastIndexOf('/') + 1))
}

/** What a directory search keeps of a listed file. */
export type FileVerdict = 'keep' | 'unwanted' | 'env' | 'secret'

/** Options of {@link fileVerdicts}. */
export interface FileFilterOptions {
  /** The model's glob, if any. */
  readonly glob?: string
  /** Skip `.env` files (directory searches; off when `path` names the file). */
  readonly skipEnv: boolean
  /** Secret locations. */
  readonly isSecretPath?: SecretPathCheck
}

/** A verdict function over (path relative to the searched directory, absolute path). */
export function fileVerdicts(options: FileFilterOptions): (relative: string, absolute: string) => FileVerdict {
  const wanted = globMatcher(options.glob)
  return (relative, absolute) => {
    if (!wanted(relative)) return 'unwanted'
    if (options.isSecretPath?.(absolute) === true) return 'secret'
    if (options.skipEnv && isEnvFile(relative.slice(relative.lastIndexOf('/') + 1))) return 'env'
    return 'keep'
  }
}
