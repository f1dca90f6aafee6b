/**
 * Finds the git repositories inside a writable root and says which of their files run code at
 * the user's next git command: the root's own `.git` and every nested one (a repository checked
 * out in a subdirectory, a submodule's or a worktree's `.git` file), found breadth-first without
 * entering `node_modules` or a `.git`, up to a budget of directories; inside each git directory,
 * the submodules' git directories (`modules/…`) and the worktrees' (`worktrees/NAME`), and, for a
 * `.git` file, the git directory it names.
 */
import { lstatSync, readdirSync } from 'node:fs'
import { readSmallText } from '@dsh/runtime'
import { dirname, isAbsolute, join, resolve } from 'node:path'

/** One `.git` entry found below a root. */
export interface GitEntry {
  /** Absolute path of the `.git` entry. */
  readonly path: string
  /** A git directory, or a `.git` file (`gitdir: …`) of a worktree or submodule checkout. */
  readonly kind: 'directory' | 'file'
}

/** How far the search of one root goes (directories read); deeper repositories are not found. */
export const GIT_SEARCH_BUDGET = 4000

function kindOf(path: string): 'directory' | 'file' | 'other' | undefined {
  try {
    const stat = lstatSync(path)
    return stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : 'other'
  } catch {
    // Missing or unreadable: there is nothing git could run there.
    return undefined
  }
}

/** The `.git` entries below `root` (its own first), breadth-first, at most `budget` directories read. */
export function findGitEntries(root: string, budget = GIT_SEARCH_BUDGET): GitEntry[] {
  const found: GitEntry[] = []
  const queue = [root]
  for (let read = 0; read < queue.length && read < budget; read++) {
    const dir = queue[read] ?? root
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      // An unreadable directory: git cannot be run from inside it either.
      continue
    }
    for (const entry of entries) {
      if (entry.name === '.git') {
        if (entry.isDirectory()) found.push({ path: join(dir, entry.name), kind: 'directory' })
        else if (entry.isFile()) found.push({ path: join(dir, entry.name), kind: 'file' })
      } else if (entry.isDirectory() && entry.name !== 'node_modules') queue.push(join(dir, entry.name))
    }
  }
  return found
}

/** The git directory a `.git` file names (absolute), or undefined. */
export function gitFileTarget(file: string): string | undefined {
  // Unreadable, not a small regular file (a FIFO would block the read): git could not use it either.
  const text = readSmallText(file, { maxBytes: 64 * 1024 })
  const line = text === undefined ? undefined : /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1]
  if (line === undefined) return undefined
  return isAbsolute(line) ? line : resolve(dirname(file), line)
}

/** Git directories inside `gitDir` (itself first): submodules' under `modules/`, worktrees' under `worktrees/`. */
export function gitDirectoriesIn(gitDir: string, depth = 0): string[] {
  const dirs = [gitDir]
  if (depth > 4) return dirs
  const worktrees = join(gitDir, 'worktrees')
  if (kindOf(worktrees) === 'directory') for (const name of safeList(worktrees)) if (kindOf(join(worktrees, name)) === 'directory') dirs.push(join(worktrees, name))
  const modules = join(gitDir, 'modules')
  if (kindOf(modules) === 'directory') for (const module of moduleDirs(modules, 0)) dirs.push(...gitDirectoriesIn(module, depth + 1))
  return dirs
}

/** Submodule git directories below `dir` (a submodule name may hold slashes: `modules/lib/a`). */
function moduleDirs(dir: string, depth: number): string[] {
  if (depth > 4) return []
  const out: string[] = []
  for (const name of safeList(dir)) {
    const path = join(dir, name)
    if (kindOf(path) !== 'directory') continue
    if (kindOf(join(path, 'HEAD')) === 'file') out.push(path)
    else out.push(...moduleDirs(path, depth + 1))
  }
  return out
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    // Unreadable: nothing there git could use.
    return []
  }
}

/** The files of one git directory that make git run programs or pick another git directory. */
export const GIT_DIR_PROTECTED = ['config', 'config.worktree', 'hooks', 'info', 'commondir', 'gitdir'] as const

/**
 * Of those, the ones whose creation is reverted when absent: a worktree's git directory takes its
 * hooks and config from the common directory, so only its `config.worktree` counts there.
 */
export function watchedInGitDir(gitDir: string): readonly string[] {
  return dirname(gitDir).endsWith('/worktrees') || dirname(gitDir) === 'worktrees' ? ['config.worktree'] : ['hooks', 'info', 'config.worktree']
}
