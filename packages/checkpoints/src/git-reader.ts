/**
 * Read-only questions to the git repository a root lies in: which files are not ignored, which
 * tracked files match their index entry (and the object id of that content), and an object's
 * bytes. Every command runs with `GIT_OPTIONAL_LOCKS=0` and the file-system monitor off, so git
 * never refreshes or rewrites the index: nothing in the user's repository changes.
 */
import { spawnSync } from 'node:child_process'

const gitEnv = (): NodeJS.ProcessEnv => ({ ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' })

function git(root: string, args: readonly string[]): Buffer | undefined {
  const result = spawnSync('git', ['-c', 'core.fsmonitor=false', '-c', 'core.untrackedCache=false', '-C', root, ...args], { env: gitEnv(), maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] })
  return result.status === 0 ? result.stdout : undefined
}

const nulSplit = (bytes: Buffer): string[] => bytes.toString('utf8').split('\0').filter((part) => part !== '')

/** Whether `root` lies in a git work tree: `present`, `absent`, or `unavailable` (git cannot run). */
export function probeGit(root: string): 'present' | 'absent' | 'unavailable' {
  const result = spawnSync('git', ['-C', root, 'rev-parse', '--is-inside-work-tree'], { env: gitEnv(), stdio: ['ignore', 'pipe', 'ignore'] })
  if (result.error !== undefined) return 'unavailable'
  return result.status === 0 && result.stdout.toString().trim() === 'true' ? 'present' : 'absent'
}

/** Files under `root` (relative) that are tracked or untracked and not ignored; undefined when git failed. */
export function listUnignored(root: string): string[] | undefined {
  const out = git(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard'])
  return out === undefined ? undefined : nulSplit(out).filter((path) => !path.endsWith('/'))
}

/** Tracked files whose work-tree content equals their index entry, with that entry's object id. */
export function cleanTrackedObjects(root: string): Map<string, string> {
  const staged = git(root, ['ls-files', '-z', '--stage'])
  const dirty = git(root, ['diff-files', '-z', '--name-only', '--relative'])
  const clean = new Map<string, string>()
  if (staged === undefined || dirty === undefined) return clean
  const changed = new Set(nulSplit(dirty))
  for (const line of nulSplit(staged)) {
    // "<mode> <oid> <stage>\t<path>"; only stage 0 (merged) entries describe the work tree.
    const tab = line.indexOf('\t')
    const [mode, oid, stage] = line.slice(0, tab).split(' ')
    const path = line.slice(tab + 1)
    if (stage === '0' && oid !== undefined && mode !== '160000' && !changed.has(path)) clean.set(path, oid)
  }
  return clean
}

/** The bytes of object `oid`, undefined when git cannot read it. */
export function readObject(root: string, oid: string): Buffer | undefined {
  return git(root, ['cat-file', 'blob', oid])
}

/** Which of `paths` (relative to `root`) git ignores; none when git cannot tell. */
export function ignoredAmong(root: string, paths: readonly string[]): Set<string> {
  if (paths.length === 0) return new Set()
  const result = spawnSync('git', ['-c', 'core.fsmonitor=false', '-C', root, 'check-ignore', '--stdin', '-z'], { env: gitEnv(), input: `${paths.join('\0')}\0`, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'ignore'] })
  // Exit 1 means none is ignored; anything but 0 and 1 is a failure, where nothing counts as ignored.
  return result.status === 0 ? new Set(nulSplit(result.stdout)) : new Set()
}
