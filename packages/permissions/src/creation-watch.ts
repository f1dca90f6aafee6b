/**
 * Detect-and-revert for protected files that did not exist when a sandboxed command started (a
 * new `.git/hooks`, `.envrc`, `.mcp.json`, `.vscode/`, `.dsh/`, a `.git` at the top of a root):
 * bubblewrap can only bind what exists, so their creation cannot be prevented without leaving
 * empty mount points in the user's tree. Instead every launch records what was absent
 * (`observe`), and each sweep — after a launch ends, and before a launch, when the launcher is
 * disposed and at once when the parent directory reports a new entry (`fs.watch`) while a
 * sandboxed command may have run since the last look — moves what appeared to
 * `$DSH_HOME/quarantine/<stamp>/…` (removes it when there is no quarantine) unless dsh's own
 * filesystem port wrote there (`exempt`: the `write`/`edit` tools after the policy's question,
 * maintainer-doc-guard's operator saves). When no sandboxed command can have run since the last
 * look, what appeared is the user's own (made in their editor while the chat waited) and is kept
 * (`settle`). What was reverted is told to the model with the next
 * finished command (`notice`) and to the user on stderr. After a command ends and when the watch
 * is disposed, the repositories it created below the top of a root are looked into as well
 * (new-repositories.ts): a new `.git` holding a hook or a program-running config key is moved
 * away the same way.
 */
import { randomBytes } from 'node:crypto'
import { cpSync, mkdirSync, readdirSync, renameSync, rmSync, watch, type FSWatcher } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { ExecutableGuard } from './executable-guard.ts'
import { HookFiles } from './hook-files.ts'
import { NewRepositories } from './new-repositories.ts'
import type { InsideRoots } from './protected-inside-roots.ts'
import { present } from './root-check.ts'
import { DSH_PREFIX } from './protected-inside-roots.ts'

/** Options of {@link CreationWatch}. */
export interface CreationWatchOptions {
  /** Where reverted entries are moved (`$DSH_HOME/quarantine`); absent: they are removed. */
  readonly quarantine?: string
  /** Tells the user (stderr). */
  readonly warn: (line: string) => void
  /**
   * Whether a sandboxed command may have made what a look finds now: one runs, or one ran since
   * the last full look after a command (the launcher's). When none may have run, a directory event
   * or the last look at disposal takes what appeared as the user's ({@link CreationWatch.settle})
   * instead of reverting it. Default: every look reverts.
   */
  readonly sandboxMayHaveRun?: () => boolean
  /** Runs after a directory event's reverting sweep (the launcher may then end its doubt: none runs, none is in flight). */
  readonly afterSweep?: () => void
}

/** The `.dsh*` entries of `root`, sorted; none when it is gone or unreadable (nothing new can be found there). */
function dshNamesIn(root: string): string[] {
  try {
    return readdirSync(root)
      .filter((name) => name.startsWith(DSH_PREFIX))
      .toSorted()
  } catch {
    // The root is gone or unreadable: nothing new can be found there.
    return []
  }
}

const isWithin = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`)

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Watches protected paths that do not exist yet and reverts their creation. */
export class CreationWatch {
  readonly #options: CreationWatchOptions
  /** Watched absent path → the root it lies in. */
  readonly #absent = new Map<string, string>()
  /** Root → the `.dsh*` names known there. */
  readonly #dshNames = new Map<string, Set<string>>()
  readonly #exempt = new Set<string>()
  readonly #repositories = new NewRepositories()
  readonly #hooks = new HookFiles()
  readonly #executables = new ExecutableGuard()
  #roots: readonly string[] = []
  /** Watched directory → its watcher and the entry names that matter there (`.dsh*` when `prefix`). */
  readonly #watchers = new Map<string, { watcher: FSWatcher; names: Set<string>; prefix: boolean }>()
  #sweepQueued = false
  /** Reverted paths the model has not been told of yet. */
  #pending: { path: string; moved?: string; putBack?: boolean }[] = []
  #stamp: string | undefined

  constructor(options: CreationWatchOptions) {
    this.#options = options
  }

  /** Records what a launch found absent (call after `sweep`, so nothing planted since is taken as known). */
  observe(found: InsideRoots, roots: readonly string[]): void {
    for (const path of found.absent) {
      const root = roots.find((candidate) => path.startsWith(`${candidate}/`)) ?? dirname(path)
      this.#absent.set(path, root)
      this.#listen(dirname(path), basename(path))
    }
    for (const { root, names } of found.dshNames) {
      this.#dshNames.set(root, new Set(names))
      this.#listen(root, DSH_PREFIX)
    }
    for (const { root, dirs } of found.repositories) this.#repositories.know(root, dirs)
    this.#roots = roots
    const worktrees = found.repositories.flatMap(({ dirs }) => dirs.filter((dir) => basename(dir) === '.git').map((gitDir) => ({ worktree: dirname(gitDir), gitDir })))
    this.#hooks.observe(worktrees, roots)
  }

  /**
   * Reverts the new repositories (made since the last launch) that hold a hook or a config key
   * git would run; returns the `.git` paths reverted. A whole tree search per root: called when a
   * command ended and at disposal, not on every directory event.
   */
  sweepRepositories(): string[] {
    const reverted: string[] = [...this.sweepGuarded()]
    for (const plant of this.#repositories.check()) {
      if (this.#exempted(plant.gitEntry)) continue
      this.#options.warn(`dsh: a sandboxed command created the repository ${plant.gitEntry} with a ${plant.why} in it`)
      reverted.push(this.#revert(plant.gitEntry, plant.root))
    }
    return reverted
  }

  /**
   * Puts back the hook files in work trees (hook-files.ts) and the guarded executables
   * (executable-guard.ts) a command changed, and moves away what it created among the hook files;
   * returns the paths. Cheap: called before each launch too.
   */
  sweepGuarded(): string[] {
    const reverted: string[] = []
    for (const path of this.#executables.check()) {
      const root = this.#roots.find((candidate) => isWithin(path, candidate)) ?? dirname(path)
      if (present(path)) this.#revert(path, root, 'changed')
      else this.#pending.push({ path })
      this.#executables.restore(path)
      const last = this.#pending.at(-1)
      if (last !== undefined) last.putBack = true
      reverted.push(path)
    }
    for (const found of this.#hooks.check()) {
      const root = this.#roots.find((candidate) => isWithin(found.path, candidate)) ?? dirname(found.path)
      if (found.kind === 'created') {
        reverted.push(this.#revert(found.path, root))
        continue
      }
      // A changed hook file: the command's version goes to the quarantine, the copy comes back.
      if (present(found.path)) this.#revert(found.path, root, 'changed')
      else this.#pending.push({ path: found.path })
      this.#hooks.restore(found.path)
      const last = this.#pending.at(-1)
      if (last !== undefined) last.putBack = true
      reverted.push(found.path)
    }
    return reverted
  }

  /** dsh itself is about to write `path` (after the policy allowed it): what it creates there stays. */
  exempt(path: string): void {
    this.#exempt.add(path)
    this.#hooks.allow(path)
    this.#executables.allow(path)
  }

  /** Guards the roots' executables `found` (executable-files.ts); returns the ones to bind read-only this launch. */
  guardExecutables(found: readonly string[]): string[] {
    // Hook files are guarded by content alone: husky rewrites its own on every install.
    return this.#executables.observe(found.filter((path) => !this.#hooks.guards(path)))
  }

  /** Whether `path` is a guarded executable already (executable-files.ts need not look at it again). */
  guardsExecutable(path: string): boolean {
    return this.#executables.has(path)
  }

  #exempted(path: string): boolean {
    for (const written of this.#exempt) if (isWithin(written, path)) return true
    return false
  }

  /**
   * No sandboxed command ran since the last look: what appeared or changed since was made by the
   * user (their editor, their terminal) and is taken as it is — protected paths that appeared are
   * no longer watched as absent, new `.dsh*` names, hook files, executables and repositories
   * become what is known. Nothing is reverted.
   */
  settle(): void {
    for (const path of this.#absent.keys()) if (present(path)) this.#absent.delete(path)
    for (const [root, known] of this.#dshNames) for (const name of dshNamesIn(root)) known.add(name)
    this.#hooks.settle()
    this.#executables.settle()
    this.#repositories.settle()
  }

  /** Reverts what appeared; returns the paths reverted now. */
  sweep(): string[] {
    const reverted: string[] = []
    for (const [path, root] of this.#absent) {
      if (!present(path)) continue
      // dsh wrote it: no longer absent. Otherwise reverted, and watched on (it is absent again).
      if (this.#exempted(path)) this.#absent.delete(path)
      else reverted.push(this.#revert(path, root))
    }
    for (const [root, known] of this.#dshNames) {
      for (const name of dshNamesIn(root)) {
        if (known.has(name)) continue
        const path = join(root, name)
        if (this.#exempted(path)) known.add(name)
        else reverted.push(this.#revert(path, root))
      }
    }
    return reverted
  }

  #revert(path: string, root: string, verb: 'created' | 'changed' = 'created'): string {
    const rel = relative(root, path)
    if (this.#options.quarantine === undefined) {
      this.#remove(path)
      this.#pending.push({ path })
      this.#options.warn(`dsh: removed ${path}, which a sandboxed command ${verb} (a protected path)`)
      return path
    }
    this.#stamp ??= `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`
    // Two roots of one name, or a path planted again: a numbered name, never over an earlier one.
    let target = join(this.#options.quarantine, this.#stamp, basename(root), rel)
    for (let n = 2; present(target); n++) target = join(this.#options.quarantine, this.#stamp, basename(root), `${rel}.${n}`)
    try {
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 })
      try {
        renameSync(path, target)
      } catch (error) {
        // Another filesystem (EXDEV): copied, links as links, then removed.
        if (!(error instanceof Error) || !('code' in error) || error.code !== 'EXDEV') throw error
        cpSync(path, target, { recursive: true, verbatimSymlinks: true })
        this.#remove(path)
      }
      this.#pending.push({ path, moved: target })
      this.#options.warn(`dsh: moved ${path}, which a sandboxed command ${verb} (a protected path), to ${target}`)
    } catch (error) {
      // The quarantine cannot be written (a full or read-only $DSH_HOME): removed in place instead.
      this.#remove(path)
      this.#pending.push({ path })
      this.#options.warn(`dsh: removed ${path}, which a sandboxed command ${verb} (a protected path; quarantine failed: ${messageOf(error)})`)
    }
    return path
  }

  #remove(path: string): void {
    try {
      rmSync(path, { recursive: true, force: true })
    } catch (error) {
      // A tree made unremovable (no write permission inside): the user must know it is there.
      this.#options.warn(`dsh: could not remove ${path}, which a sandboxed command created: remove it before running git or your tools there (${messageOf(error)})`)
    }
  }

  /**
   * Sweeps when a watched directory reports a new entry of interest, so a background process's
   * plant is reverted at once. Other entries (a busy build directory) cost a name lookup only, and
   * a burst of events is one sweep.
   */
  #listen(dir: string, name: string): void {
    const known = this.#watchers.get(dir)
    if (known !== undefined) {
      if (name === DSH_PREFIX) known.prefix = true
      else known.names.add(name)
      return
    }
    const entry = { names: new Set(name === DSH_PREFIX ? [] : [name]), prefix: name === DSH_PREFIX }
    try {
      const watcher = watch(dir, { persistent: false }, (_event, changed) => {
        if (changed !== null && !entry.names.has(changed) && !(entry.prefix && changed.startsWith(DSH_PREFIX))) return
        if (this.#sweepQueued) return
        this.#sweepQueued = true
        setImmediate(() => {
          this.#sweepQueued = false
          this.#look()
        })
      })
      // A watched directory that disappears (a removed nested repository): the next launch observes again.
      watcher.on('error', () => {
        watcher.close()
        this.#watchers.delete(dir)
      })
      this.#watchers.set(dir, { watcher, ...entry })
    } catch {
      // No inotify watch available (limit reached, directory gone): sweeps before and after launches remain.
    }
  }

  /** The model-visible note on what was reverted since the last one, or undefined. */
  notice(): string | undefined {
    if (this.#pending.length === 0) return undefined
    const items = this.#pending.map((item) => {
      if (item.putBack === true) return `${item.path} (put back as it was${item.moved === undefined ? '' : `; the changed one moved to ${item.moved}`})`
      return item.moved === undefined ? `${item.path} (removed)` : `${item.path} (moved to ${item.moved})`
    })
    const what = this.#pending.some((item) => item.putBack === true) ? 'created or changed' : 'created'
    this.#pending = []
    return `[dsh reverted what a sandboxed command ${what}: ${items.join(', ')}. Shell commands may not create git hooks or config, .dsh* files, .claude, .vscode, .idea, .envrc or .mcp.json, nor a .git at the top of a root, and may not change hook files (.husky, the core.hooksPath directory, pre-commit and lefthook config) or the executable files of the repository: programs outside the sandbox run them later. To create or change one, use the write or edit tool (it asks the user), or ask the user to do it.]`
  }

  /** A look between launches: reverts what appeared while a sandboxed command may have made it, else takes it as the user's. */
  #look(): void {
    if (this.#options.sandboxMayHaveRun?.() ?? true) {
      this.sweep()
      this.#options.afterSweep?.()
    } else this.settle()
  }

  /** Last look, then stops watching (the host ends). */
  dispose(): void {
    if (this.#options.sandboxMayHaveRun?.() ?? true) {
      this.sweep()
      this.sweepRepositories()
    } else this.settle()
    for (const { watcher } of this.#watchers.values()) watcher.close()
    this.#watchers.clear()
  }
}
