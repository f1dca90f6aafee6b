/**
 * The self-test checks of what is planted for later and of a dsh that dies: an append to an
 * existing `.git/config` (the working directory's and the first nested repository's) is refused;
 * a protected file a command creates (`.dsh-sandbox-check-…` at the top of the working directory)
 * is reverted when the command ends; so is a new repository a command makes below the top of the
 * working directory with a hook in it; an append to the shallowest executable file of the working
 * directory is refused; a background process left in a sandbox ends when the launcher
 * goes away as it does when dsh is killed (the reaper). The append opens the file without writing,
 * so a failed check changes nothing.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { ExecutableFiles } from './executable-files.ts'
import { findGitEntries } from './git-dirs.ts'
import { run, type SelfTestOptions, type SelfTestResult } from './self-test-run.ts'

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/** Appending nothing to `.git/config` of the working directory and of one nested repository. */
export async function protectedFileCheck(options: SelfTestOptions): Promise<SelfTestResult[]> {
  if (!options.writesInside) return []
  const configs = findGitEntries(options.cwd)
    .filter((entry) => entry.kind === 'directory' && existsSync(join(entry.path, 'config')))
    .slice(0, 2)
    .map((entry) => join(entry.path, 'config'))
  const results: SelfTestResult[] = []
  for (const config of configs) {
    const result = await run(options.launcher, options, `: >> ${quote(config)}`)
    const actual = result.code === 0 ? 'allowed' : 'refused'
    results.push({ what: `append to ${relative(options.cwd, config)}`, expected: 'refused', actual, ...(actual === 'refused' ? {} : { detail: 'git config is writable from the shell' }) })
  }
  return results
}

/** Appending nothing to the shallowest executable file the working directory's repository tracks (it is bound read-only). */
export async function executableCheck(options: SelfTestOptions): Promise<SelfTestResult[]> {
  if (!options.writesInside) return []
  const worktrees = findGitEntries(options.cwd, 1).flatMap((entry) => (entry.kind === 'directory' ? [{ worktree: dirname(entry.path), gitDir: entry.path }] : []))
  const [first] = new ExecutableFiles().find([options.cwd], worktrees)
  if (first === undefined) return []
  const result = await run(options.launcher, options, `: >> ${quote(first)}`)
  const actual = result.code === 0 ? 'allowed' : 'refused'
  return [{ what: `append to ${relative(options.cwd, first)} (an executable file)`, expected: 'refused', actual, ...(actual === 'refused' ? {} : { detail: 'executable files are writable from the shell' }) }]
}

/** Creating `.dsh-sandbox-check-…` at the top of the working directory; the quarantined copy is removed. */
export async function creationCheck(options: SelfTestOptions): Promise<SelfTestResult> {
  const name = `.dsh-sandbox-check-${randomBytes(4).toString('hex')}`
  const file = join(options.cwd, name)
  const result = await run(options.launcher, options, `echo check > ${quote(file)}`)
  const notice = options.launcher.explain(result.output, result.plan) ?? ''
  const moved = new RegExp(`${name} \\(moved to (.+?)\\)`).exec(notice)?.[1]
  if (moved !== undefined) removeQuarantined(moved)
  const kept = existsSync(file)
  if (kept) rmSync(file, { force: true })
  const actual = result.code !== 0 ? 'refused' : kept ? 'kept' : 'reverted'
  return { what: `create a protected file (${name.replace(/[0-9a-f]+$/, '…')}) in ${options.cwd}`, expected: options.writesInside ? 'reverted' : 'refused', actual, ...(actual === 'kept' ? { detail: 'a command can plant files that run later' } : {}) }
}

/** A repository with a hook, made by a command below the top of the working directory: its `.git` is moved away when the command ends. */
export async function newRepositoryCheck(options: SelfTestOptions): Promise<SelfTestResult> {
  const name = `dsh-sandbox-check-repo-${randomBytes(4).toString('hex')}`
  const dir = join(options.cwd, name)
  const result = await run(options.launcher, options, `mkdir -p ${quote(join(dir, '.git', 'hooks'))} && printf '#!/bin/sh\n' > ${quote(join(dir, '.git', 'hooks', 'post-checkout'))}`)
  const notice = options.launcher.explain(result.output, result.plan) ?? ''
  const moved = new RegExp(`${name}/\\.git \\(moved to (.+?)\\)`).exec(notice)?.[1]
  if (moved !== undefined) removeQuarantined(moved, 3)
  const kept = existsSync(join(dir, '.git'))
  rmSync(dir, { recursive: true, force: true })
  const actual = result.code !== 0 ? 'refused' : kept ? 'kept' : 'reverted'
  return { what: `create a repository with a hook (dsh-sandbox-check-repo-…) below ${options.cwd}`, expected: options.writesInside ? 'reverted' : 'refused', actual, ...(actual === 'kept' ? { detail: 'a command can plant hooks in a repository it creates' } : {}) }
}

/** The quarantined probe and the `levels` folders made for it above it, when they hold nothing else. */
function removeQuarantined(path: string, levels = 2): void {
  try {
    rmSync(path, { recursive: true, force: true })
    for (let dir = dirname(path), left = levels; left > 0 && readdirSync(dir).length === 0; dir = dirname(dir), left--) rmdirSync(dir)
  } catch {
    // Left in the quarantine: an empty-looking probe file, named for what it is.
  }
}

/** Host pids of live processes whose command line is `argv`. */
function running(argv: readonly string[]): number[] {
  const wanted = `${argv.join('\0')}\0`
  return readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return []
    try {
      return readFileSync(`/proc/${name}/cmdline`, 'utf8') === wanted ? [Number(name)] : []
    } catch {
      // Exited between the listing and the read.
      return []
    }
  })
}

const pause = (ms: number): Promise<void> => new Promise((wake) => setTimeout(wake, ms))

async function until(condition: () => boolean, rounds: number): Promise<boolean> {
  for (let round = 0; round < rounds; round++) {
    if (condition()) return true
    await pause(25)
  }
  return condition()
}

/** A `setsid` background process in a kept sandbox, then the launcher ends: the process must end too. Ends the launcher. */
export async function reaperCheck(options: SelfTestOptions): Promise<SelfTestResult[]> {
  if (options.dispose === undefined) return []
  const argv = ['sleep', `600.${Math.floor(Math.random() * 1e6)}`]
  const what = 'a background process when dsh dies'
  await run(options.launcher, options, `(setsid ${argv.join(' ')} > /dev/null 2>&1 &); echo started`, true)
  if (!(await until(() => running(argv).length > 0, 80))) {
    options.dispose()
    return [{ what, expected: 'ended', actual: 'not started', detail: 'the background process did not appear' }]
  }
  options.dispose()
  if (await until(() => running(argv).length === 0, 200)) return [{ what, expected: 'ended', actual: 'ended' }]
  for (const pid of running(argv)) process.kill(pid, 'SIGKILL')
  return [{ what, expected: 'ended', actual: 'left running', detail: 'the sandbox outlived its launcher' }]
}
