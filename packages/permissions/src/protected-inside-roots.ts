/**
 * What the sandbox keeps read-only inside the writable roots, computed per launch from the
 * filesystem as it is: the files that programs outside the sandbox run without asking.
 * - Per root, at its top: every `.dsh*` entry (maintainer-doc-guard's operator documents among
 *   them), `.claude`, `.vscode`, `.idea`, `.envrc`, `.mcp.json`.
 * - Per git directory (the root's, a nested repository's, a submodule's under `modules/`, a
 *   worktree's under `worktrees/`): `config`, `config.worktree`, `hooks`, `info`, `commondir`,
 *   `gitdir`. A `.git` file (worktree or submodule checkout) is itself read-only. The rest of a
 *   git directory stays writable, so `git add` and `git commit` work.
 * - Pinned (bound onto themselves, so they cannot be renamed away and replaced by a look-alike):
 *   each git directory and every directory between the root and it.
 * What does not exist cannot be bound (bubblewrap would create an empty mount point in the user's
 * tree), so it is returned as `absent`: the creation watch (creation-watch.ts) reverts its
 * creation. `.dsh*` names are open-ended: the names present are returned per root instead.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import type { Worktree } from './executable-files.ts'
import { findGitEntries, GIT_DIR_PROTECTED, GIT_SEARCH_BUDGET, gitDirectoriesIn, gitFileTarget, watchedInGitDir } from './git-dirs.ts'

/** Names at the top of a root that stay read-only to commands (besides every `.dsh*` entry). */
export const TOP_LEVEL_PROTECTED = ['.claude', '.vscode', '.idea', '.envrc', '.mcp.json'] as const

/** The prefix of dsh's own project entries (`.dsh`, `.dshrc`, `.dsh-maintainer-doc-guard`, …). */
export const DSH_PREFIX = '.dsh'

/** What to pin, keep read-only and watch inside the writable roots. */
export interface InsideRoots {
  /** Directories bound onto themselves, ancestors before descendants. */
  readonly pinned: string[]
  /** Existing paths bound read-only. */
  readonly readOnly: string[]
  /** Protected paths that do not exist: their creation is reverted. */
  readonly absent: string[]
  /** Per root searched, the `.dsh*` names at its top now (a new one is reverted). */
  readonly dshNames: { readonly root: string; readonly names: readonly string[] }[]
  /** Per root searched for nested repositories, the git directories found (a new one is checked after the command). */
  readonly repositories: { readonly root: string; readonly dirs: readonly string[] }[]
  /** The work trees found (a `.git` directory's parent, a `.git` file's with the git directory it names). */
  readonly worktrees: Worktree[]
}

/** Options of {@link protectedInsideRoots}. */
export interface InsideRootsOptions {
  /** Roots searched for nested repositories too (the session's roots); the others get the top-level check only. */
  readonly searched?: readonly string[]
}

const exists = (path: string): boolean => {
  try {
    lstatSync(path)
    return true
  } catch {
    // Missing (or unreachable): nothing to bind there.
    return false
  }
}

/** The directories strictly below `from` down to `to` (inclusive), shallowest first. */
function chain(from: string, to: string): string[] {
  const rel = relative(from, to)
  if (rel === '' || rel.startsWith('..')) return []
  const out: string[] = []
  for (let dir = to; dir !== from && dir !== dirname(dir); dir = dirname(dir)) out.unshift(dir)
  return out
}

function protectGitDir(gitDir: string, out: InsideRoots): void {
  for (const name of GIT_DIR_PROTECTED) if (exists(join(gitDir, name))) out.readOnly.push(join(gitDir, name))
  for (const name of watchedInGitDir(gitDir)) if (!exists(join(gitDir, name))) out.absent.push(join(gitDir, name))
}

function protectRepositories(root: string, out: InsideRoots, budget: number): string[] {
  const found: string[] = []
  for (const entry of findGitEntries(root, budget)) {
    out.pinned.push(...chain(root, dirname(entry.path)))
    if (entry.kind === 'file') {
      out.readOnly.push(entry.path)
      const target = gitFileTarget(entry.path)
      if (target !== undefined && existsSync(target)) {
        protectGitDir(target, out)
        out.worktrees.push({ worktree: dirname(entry.path), gitDir: target })
      }
      continue
    }
    out.worktrees.push({ worktree: dirname(entry.path), gitDir: entry.path })
    for (const gitDir of gitDirectoriesIn(entry.path)) {
      out.pinned.push(...chain(dirname(entry.path), gitDir))
      protectGitDir(gitDir, out)
      found.push(gitDir)
    }
  }
  return found
}

const unique = (list: readonly string[]): string[] => [...new Set(list)]

/** Shallower first (an ancestor's bind before its descendants'), then by name. */
const byDepth = (a: string, b: string): number => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0)

/** What to pin, keep read-only and watch in `roots`. */
export function protectedInsideRoots(roots: readonly string[], options: InsideRootsOptions = {}): InsideRoots {
  const out: InsideRoots = { pinned: [], readOnly: [], absent: [], dshNames: [], repositories: [], worktrees: [] }
  const searched = new Set(options.searched ?? roots)
  for (const root of roots) {
    let names: string[]
    try {
      names = readdirSync(root).filter((name) => name.startsWith(DSH_PREFIX))
    } catch {
      // An unreadable or missing root: bubblewrap skips it too (`--bind-try`).
      continue
    }
    out.dshNames.push({ root, names })
    for (const name of names) out.readOnly.push(join(root, name))
    for (const name of TOP_LEVEL_PROTECTED) (exists(join(root, name)) ? out.readOnly : out.absent).push(join(root, name))
    if (!exists(join(root, '.git'))) out.absent.push(join(root, '.git'))
    // Only the top of a root not searched (sandbox.writable caches): one directory read.
    const dirs = protectRepositories(root, out, searched.has(root) ? GIT_SEARCH_BUDGET : 1)
    if (searched.has(root)) out.repositories.push({ root, dirs })
  }
  return { pinned: unique(out.pinned).toSorted(byDepth), readOnly: unique(out.readOnly), absent: unique(out.absent), dshNames: out.dshNames, repositories: out.repositories, worktrees: out.worktrees }
}
