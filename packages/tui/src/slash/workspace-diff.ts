/**
 * `/diff`: the file changes in the session's directories, as `git diff` shows them (tracked
 * changes against HEAD, plus the names of untracked files). A directory that is not inside a git
 * repository, or a git that cannot run, gets a one-line note instead. The repository's own config
 * is untrusted, so git runs without its fsmonitor hook, external diff drivers or textconv filters.
 */
import { execFile } from 'node:child_process'

/** What `/diff` shows. */
export interface DiffReport {
  /** Unified diff text of every repository ('' when there are no tracked changes). */
  readonly diff: string
  /** One line per root: untracked files, no changes, or why there is no diff. */
  readonly notes: string[]
}

interface GitResult {
  readonly ok: boolean
  readonly stdout: string
  readonly stderr: string
}

function git(cwd: string, args: readonly string[], signal: AbortSignal): Promise<GitResult> {
  return new Promise((resolve) => {
    // Repository config is untrusted: no fsmonitor hook, and (below) no external diff or textconv;
    // a git held by a FIFO a command left in the repository is killed after 30 s.
    execFile('git', ['-c', 'core.fsmonitor=false', ...args], { cwd, signal, maxBuffer: 16 * 1024 * 1024, timeout: 30_000, killSignal: 'SIGKILL', env: { ...process.env, GIT_PAGER: 'cat', NO_COLOR: '1' } }, (error, stdout, stderr) => {
      // A failed git (not a repository, not installed, cancelled) is reported by the caller as a note.
      resolve({ ok: error === null, stdout, stderr: error === null || stderr !== '' ? stderr : error.message })
    })
  })
}

/** Diffs each root. */
export async function workspaceDiff(options: { readonly roots: readonly string[]; readonly signal: AbortSignal }): Promise<DiffReport> {
  let diff = ''
  const notes: string[] = []
  for (const root of options.roots) {
    const inside = await git(root, ['rev-parse', '--is-inside-work-tree'], options.signal)
    if (!inside.ok) {
      notes.push(`${root}: not a git repository, so there is no diff to show`)
      continue
    }
    const tracked = await git(root, ['diff', '--no-ext-diff', '--no-textconv', '--relative', 'HEAD', '--', '.'], options.signal)
    const changes = tracked.ok ? tracked.stdout : (await git(root, ['diff', '--no-ext-diff', '--no-textconv', '--relative', '--', '.'], options.signal)).stdout
    const untracked = await git(root, ['ls-files', '--others', '--exclude-standard'], options.signal)
    const names = untracked.stdout.split('\n').filter((name) => name !== '')
    diff += changes
    if (names.length > 0) notes.push(`${root}: untracked: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ` (+${names.length - 20} more)` : ''}`)
    else if (changes === '') notes.push(`${root}: no changes`)
  }
  return { diff, notes }
}
