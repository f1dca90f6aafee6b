/**
 * The executable files in the writable roots that programs outside the sandbox run later — the
 * user's `./scripts/release.sh`, `./gradlew`, CI's steps — and that shell commands therefore may
 * not change (issue 19, item 5). In a git work tree: the files its index records as executable
 * (git-index.ts; build outputs, which git ignores, stay writable so `make` and `cargo build` work),
 * when they are on disk as executable regular files. In a root with no repository, or whose index
 * cannot be read: the executable regular files a bounded walk finds (not entering `.git` or
 * `node_modules`). Shallowest first. An index is parsed again only when it changed.
 */
import { lstatSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, sep } from 'node:path'
import { indexExecutables, type IndexExecutables } from './git-index.ts'
import { present, within } from './root-check.ts'

/** Most entries the walk of a root without an index looks at. */
export const EXECUTABLE_WALK_BUDGET = 4000
/** Most executables protected (the shallowest): each costs a stat before and after every command. */
export const MAX_PROTECTED_EXECUTABLES = 1000

/** One work tree and its git directory. */
export interface Worktree {
  readonly worktree: string
  readonly gitDir: string
}

const isExecutableFile = (path: string): boolean => {
  try {
    const stat = lstatSync(path)
    return stat.isFile() && (stat.mode & 0o111) !== 0
  } catch {
    // Gone or unreachable: nothing to protect there.
    return false
  }
}

/** Executable regular files below `root`, breadth-first, at most {@link EXECUTABLE_WALK_BUDGET} entries looked at. */
function walk(root: string): string[] {
  const found: string[] = []
  const queue = [root]
  let seen = 0
  for (let index = 0; index < queue.length && seen < EXECUTABLE_WALK_BUDGET; index++) {
    let entries
    try {
      entries = readdirSync(queue[index] ?? root, { withFileTypes: true })
    } catch {
      // Unreadable: nothing in it can be run by the user either.
      continue
    }
    for (const entry of entries) {
      if (++seen > EXECUTABLE_WALK_BUDGET) break
      const path = join(entry.parentPath, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== '.git' && entry.name !== 'node_modules') queue.push(path)
      } else if (entry.isFile() && isExecutableFile(path)) found.push(path)
    }
  }
  return found
}

/** The work tree above `root` that holds it (a root that is a subdirectory of a repository), if any. */
function enclosingWorktree(root: string): Worktree | undefined {
  for (let dir = dirname(root); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      if (statSync(join(dir, '.git')).isDirectory()) return { worktree: dir, gitDir: join(dir, '.git') }
    } catch {
      // No `.git` here: look one level up.
    }
    if (present(join(dir, '.git'))) return undefined
  }
  return undefined
}

const depth = (path: string): number => path.split(sep).length

/** A path with its depth, for sorting shallowest first without splitting paths per comparison. */
interface Ranked {
  readonly path: string
  readonly depth: number
}
const shallowFirst = (a: Ranked, b: Ranked): number => a.depth - b.depth || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
const ranked = (paths: Iterable<string>): Ranked[] => [...paths].map((path) => ({ path, depth: depth(path) })).toSorted(shallowFirst)

/** Finds the protected executables of the roots, keeping each index's parse until it changes. */
export class ExecutableFiles {
  /** Git directory → the index's identity when parsed, what it said, and its paths made absolute in the work tree and ranked. */
  readonly #parsed = new Map<string, { stamp: string; found: IndexExecutables; ranked: Ranked[] }>()

  #index(tree: Worktree): { found: IndexExecutables; ranked: readonly Ranked[] } {
    const { gitDir } = tree
    let stamp: string
    try {
      const stat = statSync(join(gitDir, 'index'), { bigint: true })
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`
    } catch {
      // No index (or unreadable): the parse says which.
      stamp = 'none'
    }
    const cached = this.#parsed.get(gitDir)
    if (cached?.stamp === stamp) return cached
    const found = indexExecutables(gitDir)
    const entry = { stamp, found, ranked: found.kind === 'present' ? ranked(found.paths.map((path) => join(tree.worktree, path))) : [] }
    this.#parsed.set(gitDir, entry)
    return entry
  }

  /**
   * The executables to protect in `roots`, given the work trees found in them (the roots' own and
   * nested ones). `known`: paths guarded already, taken without a look (their guard checks them).
   */
  find(roots: readonly string[], worktrees: readonly Worktree[], known: (path: string) => boolean = () => false): string[] {
    // Found on disk (checked already), and listed by an index (checked below, shallowest first, until enough are found).
    const out = new Set<string>()
    const listed: Ranked[] = []
    for (const root of roots) {
      const trees = worktrees.filter((tree) => within(root, tree.worktree))
      const enclosing = trees.some((tree) => tree.worktree === root) ? undefined : enclosingWorktree(root)
      if (enclosing !== undefined) trees.unshift(enclosing)
      let walked = false
      for (const tree of trees) {
        const { found, ranked: paths } = this.#index(tree)
        if (found.kind !== 'present') {
          // Nothing tracked yet, or an index this reader cannot take: what is on disk counts.
          if (!walked && (tree.worktree === root || tree === enclosing)) for (const path of walk(root)) out.add(path)
          walked = true
          continue
        }
        for (const entry of paths) if (within(root, entry.path)) listed.push(entry)
      }
      if (trees.length === 0) for (const path of walk(root)) out.add(path)
    }
    const chosen: string[] = []
    // One index and nothing walked (the usual case): its list is ranked already.
    const candidates = out.size === 0 && listed.every((entry, index) => index === 0 || shallowFirst(listed[index - 1] ?? entry, entry) <= 0) ? listed : [...ranked(out), ...listed].toSorted(shallowFirst)
    for (const { path } of candidates) {
      if (chosen.length >= MAX_PROTECTED_EXECUTABLES) break
      if ((out.has(path) || known(path) || isExecutableFile(path)) && chosen.at(-1) !== path) chosen.push(path)
    }
    return chosen
  }
}
