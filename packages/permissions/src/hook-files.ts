/**
 * Hook files that live in a work tree rather than in `.git`, which git runs at the user's next
 * commit, outside any sandbox: the directory `core.hooksPath` names (`.githooks`; husky's
 * `.husky/_`, whose stubs run the scripts in `.husky/`, so those are guarded too), and the config
 * of the pre-commit framework and lefthook. They are not bound read-only — husky rewrites
 * `.husky/_` on every `npm install`, which would then fail — so they are guarded by content: the
 * first launch that sees a file keeps a copy (regular files up to {@link MAX_HOOK_BYTES}), and
 * each check names what was changed, removed or created since; the caller moves the new version
 * away and {@link HookFiles.restore} writes the copy back. An identical rewrite (husky's own) is
 * no change; what dsh itself writes (each write announced by {@link HookFiles.allow}, good for
 * that one change) becomes the copy, so a later shell change is caught again. As with other protected paths,
 * a change the user makes there while the session runs is put back too (and said).
 */
import { readdirSync } from 'node:fs'
import { readSmallFile, readSmallText } from '@dsh/runtime'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { configKeyValue } from './new-repositories.ts'
import { putBack, type KeptCopy } from './put-back.ts'
import { present, within } from './root-check.ts'

/** Largest hook file kept (bigger ones are not guarded). */
export const MAX_HOOK_BYTES = 256 * 1024
/** Most files guarded per directory. */
const MAX_FILES_PER_DIRECTORY = 200

/** Hook-manager config files at the top of a work tree. */
export const HOOK_CONFIG_NAMES = ['.pre-commit-config.yaml', 'lefthook.yml', '.lefthook.yml', 'lefthook-local.yml', '.lefthook-local.yml'] as const

/** What a check found at one path: a kept file changed or removed, or a file created in a guarded place. */
export interface HookRevert {
  readonly kind: 'changed' | 'created'
  readonly path: string
}

type Kept = KeptCopy

function regularFile(path: string): Kept | undefined {
  // Not followed, and opened without blocking: gone, unreadable, a FIFO or a link a command left there is no copy.
  const read = readSmallFile(path, { maxBytes: MAX_HOOK_BYTES, follow: false })
  return read.kind === 'file' ? { bytes: read.bytes, mode: read.stats.mode & 0o7777 } : undefined
}

function names(dir: string): string[] | undefined {
  try {
    return readdirSync(dir)
  } catch {
    // No such directory: its own creation is what is watched then.
    return undefined
  }
}

/** The hook directories git runs from for the work tree `worktree` (git directory `gitDir`): the hooks path, and `.husky` when the hooks path is inside it. */
export function hookDirectories(worktree: string, gitDir: string): string[] {
  // No config (or none dsh can read as a small regular file): git uses .git/hooks, bound read-only elsewhere.
  const config = readSmallText(join(gitDir, 'config'), { maxBytes: 1024 * 1024 }) ?? ''
  const hooksPath = configKeyValue(config, 'core.hookspath')
  if (hooksPath === undefined || hooksPath === '') return []
  const dir = isAbsolute(hooksPath) ? hooksPath : resolve(worktree, hooksPath)
  const husky = join(worktree, '.husky')
  return dir !== husky && within(husky, dir) ? [dir, husky] : [dir]
}

/** Copies of the hook files of the work trees, and the check against them. */
export class HookFiles {
  readonly #kept = new Map<string, Kept>()
  /** Guarded directory → the names known there (a new one is a creation). */
  readonly #listed = new Map<string, Set<string>>()
  /** Guarded paths that did not exist when first seen. */
  readonly #absent = new Set<string>()
  /** Paths dsh itself is writing: their next change is the new copy. */
  readonly #allowed = new Set<string>()

  /** dsh itself (the write tool after the policy's question) writes `path`: its next change is taken, not put back. */
  allow(path: string): void {
    this.#allowed.add(path)
  }

  /** Whether `path`'s change is dsh's own (used up by the asking). */
  #ownChange(path: string): boolean {
    return this.#allowed.delete(path)
  }

  /** Starts guarding what `worktrees` (each with its git directory) hold inside `roots`; what is already guarded keeps its copy. */
  observe(worktrees: readonly { readonly worktree: string; readonly gitDir: string }[], roots: readonly string[]): void {
    const inRoots = (path: string): boolean => roots.some((root) => within(root, path))
    const guard = (path: string): void => {
      if (this.#kept.has(path) || this.#absent.has(path)) return
      const kept = regularFile(path)
      if (kept !== undefined) this.#kept.set(path, kept)
      else if (!present(path)) this.#absent.add(path)
    }
    for (const { worktree, gitDir } of worktrees) {
      for (const dir of hookDirectories(worktree, gitDir)) {
        if (!inRoots(dir) || within(gitDir, dir) || this.#listed.has(dir)) continue
        const listed = names(dir)
        if (listed === undefined) {
          guard(dir)
          continue
        }
        // husky's own folder inside `.husky` is guarded as the hooks path, not as a script.
        this.#listed.set(dir, new Set(listed))
        for (const name of listed.slice(0, MAX_FILES_PER_DIRECTORY)) if (!(basename(dir) === '.husky' && name === '_')) guard(join(dir, name))
      }
      for (const name of HOOK_CONFIG_NAMES) if (inRoots(join(worktree, name))) guard(join(worktree, name))
    }
  }

  /** Whether `path` is one of the hook files guarded here (the executable guard leaves those alone). */
  guards(path: string): boolean {
    return this.#kept.has(path) || this.#listed.has(dirname(path))
  }

  /** Writes the kept copy of `path` back (after the caller moved the command's version away). */
  restore(path: string): void {
    const kept = this.#kept.get(path)
    if (kept === undefined) return
    putBack(path, kept)
  }

  /** No sandbox ran since the last check: every change and creation since is the user's and becomes the kept copy. */
  settle(): void {
    for (const found of this.check()) this.allow(found.path)
    this.check()
  }

  /** The kept files changed or removed and the paths created in a guarded place since; dsh's own writes ({@link allow}) are taken as they are. */
  check(): HookRevert[] {
    const found: HookRevert[] = []
    for (const [path, kept] of this.#kept) {
      const now = regularFile(path)
      if (now !== undefined && now.mode === kept.mode && now.bytes.equals(kept.bytes)) continue
      if (!this.#ownChange(path)) found.push({ kind: 'changed', path })
      else if (now === undefined) this.#kept.delete(path)
      else this.#kept.set(path, now)
    }
    for (const [dir, known] of this.#listed) {
      for (const name of names(dir) ?? []) {
        const path = join(dir, name)
        if (known.has(name) || this.#kept.has(path)) continue
        if (!this.#ownChange(path)) {
          found.push({ kind: 'created', path })
          continue
        }
        // dsh created it: guarded from now on, with what it wrote as the copy.
        known.add(name)
        const kept = regularFile(path)
        if (kept !== undefined) this.#kept.set(path, kept)
      }
    }
    for (const path of this.#absent) {
      // One in a guarded directory is found by the listing above.
      if (this.#listed.has(dirname(path)) || !present(path)) continue
      if (!this.#ownChange(path)) {
        found.push({ kind: 'created', path })
        continue
      }
      this.#absent.delete(path)
      const kept = regularFile(path)
      if (kept !== undefined) this.#kept.set(path, kept)
    }
    return found
  }
}
