/**
 * The files `@` completion searches: what `rg --files` lists under the working directory (ignore
 * rules applied, hidden files in, `.git` out, links not followed) and every directory on their
 * paths, at most {@link MAX_INDEXED} of them. The listing is taken at the first `@` and again when
 * it is older than {@link FRESH_MS}; while one runs, callers share it. Ignored files are not in it
 * (a build directory would drown the rest), but typing their directory (`@dist/`) lists them from
 * the disk. Without ripgrep there is no index and completion lists directories only.
 */
import { bundledRipgrepPath } from './ripgrep-binary.ts'
import { ripgrepFiles } from './ripgrep-files.ts'

/** Most paths indexed. */
export const MAX_INDEXED = 100_000
/** How long a listing is reused, in ms. */
export const FRESH_MS = 10_000
/** How long one listing may take, in ms. */
const LISTING_MS = 3000

/** The index of one working directory. */
export class FileIndex {
  readonly #cwd: string
  readonly #binary: string | undefined
  readonly #now: () => number
  #paths: readonly string[] = []
  #takenAt = Number.NEGATIVE_INFINITY
  #running: Promise<readonly string[]> | undefined

  constructor(options: { readonly cwd: string; readonly binary?: string | undefined; readonly now?: () => number }) {
    this.#cwd = options.cwd
    this.#binary = 'binary' in options ? options.binary : bundledRipgrepPath()
    this.#now = options.now ?? Date.now
  }

  /** Relative paths (directories end in `/`), from a listing at most {@link FRESH_MS} old. */
  paths(): Promise<readonly string[]> {
    if (this.#now() - this.#takenAt < FRESH_MS) return Promise.resolve(this.#paths)
    this.#running ??= this.#list().finally(() => {
      this.#running = undefined
    })
    return this.#running
  }

  async #list(): Promise<readonly string[]> {
    const binary = this.#binary
    if (binary === undefined) return []
    const files: string[] = []
    const dirs = new Set<string>()
    const exit = await ripgrepFiles({ binary, cwd: this.#cwd, deadline: Date.now() + LISTING_MS, signal: new AbortController().signal }, this.#cwd, (_display, relative) => {
      files.push(relative)
      for (let at = relative.indexOf('/'); at > 0; at = relative.indexOf('/', at + 1)) dirs.add(relative.slice(0, at + 1))
      return files.length + dirs.size < MAX_INDEXED
    })
    // A listing cut short by its deadline still helps; one that could not run leaves the old one.
    if (exit.kind === 'cannot-run') return this.#paths
    this.#paths = [...dirs, ...files]
    this.#takenAt = this.#now()
    return this.#paths
  }
}
