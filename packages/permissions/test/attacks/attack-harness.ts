// Shared parts of the red-team suite: a workspace owned by the user dsh runs as (root, or
// `nobody` for the unprivileged runs), a scripted model whose every action is an attack, the built
// binary spawned with extra descriptors when an attack needs them, and what the model saw.
import { spawn } from 'node:child_process'
import { chmodSync, chownSync, cpSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { ModelScript } from '@dsh/llm-scripted'
import { tempTree, type TempTree } from '@dsh/testkit'
import { dshBinary, readRequests, type DshResult } from '../../../../apps/cli/test/run-dsh.ts'

/** Who runs dsh: the test's own user (root in CI), or `nobody` when the test runs as root. */
export interface Runner {
  readonly name: string
  readonly user?: { readonly uid: number; readonly gid: number }
}

/** The runners of a test: always the current user, and `nobody` too when that is root. */
export function runners(): Runner[] {
  const self: Runner = { name: process.getuid?.() === 0 ? 'root' : 'the current user' }
  return process.getuid?.() === 0 ? [self, { name: 'an unprivileged user', user: { uid: 65534, gid: 65534 } }] : [self]
}

/** An attack workspace: `repo` (the working directory), `home` (HOME), `dsh` (DSH_HOME), `tmp` (TMPDIR), `outside`. */
export interface Workspace {
  readonly tree: TempTree
  readonly repo: string
  readonly home: string
  readonly dshHome: string
  readonly tmp: string
  readonly outside: string
  readonly log: string
  /** The environment dsh runs with (merged over PATH, HOME, TMPDIR). */
  readonly env: Record<string, string>
  readonly runner: Runner
  /** How to start dsh: the program and its leading arguments. */
  readonly command: readonly string[]
}

/**
 * dsh as `runner` can start it. An unprivileged user gets its own copy of the built bin and dist in
 * the workspace: the clone may lie under a folder only root may enter (`mktemp -d` makes 0700
 * ones). The copy is run by node with the launcher's inspector port, as its shebang would.
 */
function dshCommand(root: string, runner: Runner): string[] {
  if (runner.user === undefined) return [dshBinary]
  const cli = dirname(dirname(readlinkTarget(dshBinary)))
  const app = join(root, 'dsh-app')
  cpSync(join(cli, 'bin'), join(app, 'bin'), { recursive: true })
  cpSync(join(cli, 'dist'), join(app, 'dist'), { recursive: true, filter: (source) => !source.endsWith('.map') })
  return [process.execPath, '--inspect-port=192.0.2.1:9229', join(app, 'bin', 'dsh.mjs')]
}

/** Where a link (node_modules/.bin/dsh) leads, as an absolute path. */
function readlinkTarget(path: string): string {
  try {
    return join(dirname(path), readlinkSync(path))
  } catch {
    // Not a link (DSH_TEST_BINARY names the file itself): the path is the file.
    return path
  }
}

function chownTree(path: string, user: NonNullable<Runner['user']>): void {
  chownSync(path, user.uid, user.gid)
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), user)
}

/** Creates the workspace with `files` (tree spec relative to its root), owned by the runner. */
export async function attackWorkspace(runner: Runner, files: Record<string, string | null> = {}): Promise<Workspace> {
  const tree = await tempTree({ 'repo/notes.txt': 'notes\n', 'home/': null, 'dsh/': null, 'tmp/': null, 'outside/': null, 'scripts/': null, ...files })
  const command = dshCommand(tree.root, runner)
  if (runner.user !== undefined) {
    chmodSync(tree.root, 0o755)
    chownTree(tree.root, runner.user)
  }
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: tree.path('home'), TMPDIR: tree.path('tmp'), NO_COLOR: '1' }
  return { tree, repo: tree.path('repo'), home: tree.path('home'), dshHome: tree.path('dsh'), tmp: tree.path('tmp'), outside: tree.path('outside'), log: tree.path('requests.jsonl'), env, runner, command }
}

/** Writes a scripted model: one response per entry (bash commands as strings), then `done`. */
export function attackScript(w: Workspace, name: string, calls: readonly (string | { readonly name: string; readonly arguments: Record<string, unknown> })[]): string {
  const script: ModelScript = { responses: [...calls.map((call) => ({ toolCalls: [typeof call === 'string' ? { name: 'bash', arguments: { command: call } } : call] })), { text: 'done' }] }
  const file = join(w.tree.path('scripts'), name)
  writeFileSync(file, JSON.stringify(script))
  return file
}

/** A running dsh. */
export interface RunningDsh {
  readonly pid: number
  readonly done: Promise<DshResult>
  /** Resolves when stderr so far contains `text`. */
  stderrShows(text: string): Promise<void>
}

/** Spawns `dsh --dsh-home … run --cwd repo --model scripted:SCRIPT --request-log LOG go` (plus `args`). */
export function startRun(w: Workspace, script: string, options: { readonly args?: readonly string[]; readonly env?: Record<string, string>; readonly extraFd?: number; readonly timeoutMs?: number } = {}): RunningDsh {
  const args = ['--dsh-home', w.dshHome, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log, ...(options.args ?? []), 'go']
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe']
  if (options.extraFd !== undefined) stdio.push('ignore', 'ignore', options.extraFd)
  const [program = dshBinary, ...lead] = w.command
  const child = spawn(program, [...lead, ...args], { cwd: w.repo, env: { ...w.env, ...options.env }, stdio, ...w.runner.user })
  let stderr = ''
  const waiting: { text: string; wake: () => void }[] = []
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
    for (const waiter of waiting.filter((entry) => stderr.includes(entry.text))) waiter.wake()
  })
  const done = new Promise<DshResult>((resolve, reject) => {
    let stdout = ''
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`dsh timed out\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, options.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
  if (child.pid === undefined) throw new Error('dsh did not start')
  const stderrShows = (text: string): Promise<void> => (stderr.includes(text) ? Promise.resolve() : new Promise((wake) => waiting.push({ text, wake })))
  return { pid: child.pid, done, stderrShows }
}

/** Runs the script to its end and returns dsh's result. */
export function runAttack(w: Workspace, script: string, options: Parameters<typeof startRun>[2] = {}): Promise<DshResult> {
  return startRun(w, script, options).done
}

/** The tool results the model saw in its last request, in order. */
export function toolResults(w: Workspace): string[] {
  return (
    readRequests(w.log)
      .at(-1)
      ?.messages.filter((message) => message.role === 'tool')
      .map((message) => message.content ?? '') ?? []
  )
}

/** Host pids of live processes whose command line is exactly `argv`. */
export function processesRunning(argv: readonly string[]): number[] {
  const wanted = `${argv.join('\0')}\0`
  return readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return []
    try {
      return readFileSync(`/proc/${name}/cmdline`, 'utf8') === wanted && !readFileSync(`/proc/${name}/stat`, 'utf8').includes(') Z ') ? [Number(name)] : []
    } catch {
      // The process exited between the listing and the read.
      return []
    }
  })
}

/** TCP ports process `pid` listens on (from /proc/net/tcp and its descriptors). */
export function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>()
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`)
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1]
      if (inode !== undefined) inodes.add(inode)
    } catch {
      // The descriptor was closed meanwhile.
    }
  }
  const ports: number[] = []
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (fields[3] === '0A' && fields[9] !== undefined && inodes.has(fields[9])) ports.push(Number.parseInt(fields[1]?.split(':')[1] ?? '0', 16))
    }
  }
  return ports
}

/** Makes a directory owned by the runner. */
export function runnerDir(w: Workspace, path: string): string {
  mkdirSync(path, { recursive: true })
  if (w.runner.user !== undefined) chownSync(path, w.runner.user.uid, w.runner.user.gid)
  return path
}
