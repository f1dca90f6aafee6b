/**
 * Read-only questions to the git repository a root lies in: which files are not ignored, which
 * tracked files match their index entry (and the object id of that content), and an object's
 * bytes. Every command runs with `GIT_OPTIONAL_LOCKS=0` and the file-system monitor off, so git
 * never refreshes or rewrites the index: nothing in the user's repository changes. The calls are
 * synchronous, and a command can leave a FIFO where git reads (`.git/index`, a `.gitignore`),
 * which once held git, and dsh with it, forever: each git command is killed after
 * {@link GIT_TIMEOUT_MS}, and after one that was, the reader asks git nothing more (every answer
 * is "git cannot tell", which the caller meets with its plain-directory fallback).
 */
import { spawnSync } from 'node:child_process'

/** Longest a git command may take (killed after it). */
export const GIT_TIMEOUT_MS = 20_000

const gitEnv = (): NodeJS.ProcessEnv => ({ ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' })

const nulSplit = (bytes: Buffer): string[] => bytes.toString('utf8').split('\0').filter((part) => part !== '')

/** The git questions of one root. */
export class GitReader {
  readonly root: string
  #timedOut = false

  constructor(root: string) {
    this.root = root
  }

  /** True once a git command of this root was killed at its time limit. */
  get timedOut(): boolean {
    return this.#timedOut
  }

  /** Runs git; its stdout on exit 0 (or `ok` codes), undefined otherwise. */
  #run(args: readonly string[], options: { readonly input?: string; readonly ok?: readonly number[] } = {}): { readonly status: number; readonly stdout: Buffer } | undefined {
    if (this.#timedOut) return undefined
    const result = spawnSync('git', ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false', '-C', this.root, ...args], {
      env: gitEnv(),
      maxBuffer: 1 << 30,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'],
      ...(options.input === undefined ? {} : { input: options.input }),
      timeout: GIT_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    })
    const code = result.error !== undefined && 'code' in result.error ? result.error.code : undefined
    if (code === 'ETIMEDOUT') this.#timedOut = true
    if (result.error !== undefined || result.status === null || !(options.ok ?? [0]).includes(result.status)) return undefined
    return { status: result.status, stdout: result.stdout }
  }

  /** Whether the root lies in a git work tree: `present`, `absent`, or `unavailable` (git cannot run, or did not answer in time). */
  probe(): 'present' | 'absent' | 'unavailable' {
    const result = spawnSync('git', ['-C', this.root, 'rev-parse', '--is-inside-work-tree'], { env: gitEnv(), stdio: ['ignore', 'pipe', 'ignore'], timeout: GIT_TIMEOUT_MS, killSignal: 'SIGKILL' })
    if (result.error !== undefined) return 'unavailable'
    return result.status === 0 && result.stdout.toString().trim() === 'true' ? 'present' : 'absent'
  }

  /** Files under the root (relative) that are tracked or untracked and not ignored; undefined when git failed. */
  listUnignored(): string[] | undefined {
    const out = this.#run(['ls-files', '-z', '--cached', '--others', '--exclude-standard'])
    return out === undefined ? undefined : nulSplit(out.stdout).filter((path) => !path.endsWith('/'))
  }

  /** Tracked files whose work-tree content equals their index entry, with that entry's object id. */
  cleanTrackedObjects(): Map<string, string> {
    const staged = this.#run(['ls-files', '-z', '--stage'])
    const dirty = this.#run(['diff-files', '-z', '--name-only', '--relative'])
    const clean = new Map<string, string>()
    if (staged === undefined || dirty === undefined) return clean
    const changed = new Set(nulSplit(dirty.stdout))
    for (const line of nulSplit(staged.stdout)) {
      // "<mode> <oid> <stage>\t<path>"; only stage 0 (merged) entries describe the work tree.
      const tab = line.indexOf('\t')
      const [mode, oid, stage] = line.slice(0, tab).split(' ')
      const path = line.slice(tab + 1)
      if (stage === '0' && oid !== undefined && mode !== '160000' && !changed.has(path)) clean.set(path, oid)
    }
    return clean
  }

  /** The bytes of object `oid`, undefined when git cannot read it. */
  readObject(oid: string): Buffer | undefined {
    return this.#run(['cat-file', 'blob', oid])?.stdout
  }

  /** Which of `paths` (relative to the root) git ignores; none when git cannot tell. */
  ignoredAmong(paths: readonly string[]): Set<string> {
    if (paths.length === 0) return new Set()
    // Exit 1 means none is ignored; anything but 0 and 1 is a failure, where nothing counts as ignored.
    const result = this.#run(['check-ignore', '--stdin', '-z'], { input: `${paths.join('\0')}\0`, ok: [0, 1] })
    return result?.status === 0 ? new Set(nulSplit(result.stdout)) : new Set()
  }
}
