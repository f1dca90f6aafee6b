/**
 * `dsh sandbox check [--cwd DIR]`: what the shell sandbox would allow for a session in the working
 * directory — the mode, whether bubblewrap works, the writable roots (the directory, its available
 * additional roots, `--add-dir` directories, the temp directory), the network — and a self-test
 * with real commands. Exit 0 when every check came out as the settings say, 1 otherwise (no
 * sandbox included).
 */
import { tmpdir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import { MAX_BOUND_EXECUTABLES, modeLabel, sandboxOf, sandboxSelfTest, sandboxWeakenings, type SelfTestResult } from '@dsh/permissions'
import { RootRegistry, registryTarget } from '@dsh/multi-root-workspace'
import { configFrom } from '../agent-setup.ts'
import type { CliIo } from '../cli-io.ts'
import { cwdFrom, dshHomeFrom } from '../global-options.ts'
import { multiRootEnabled } from '../multi-root-config.ts'
import { permissionsFrom } from '../permission-options.ts'
import { sandboxSetup } from '../permission-setup.ts'

/** Options of `dsh sandbox check`. */
export interface SandboxCheckOptions {
  readonly dshHome?: string
  readonly cwd?: string
  readonly config?: string
  readonly addDir?: readonly string[]
  readonly permissionMode?: string
}

const line = (io: CliIo, text: string): void => void io.stdout.write(`${text}\n`)

function rootsOf(io: CliIo, options: SandboxCheckOptions, cwd: string, enabled: boolean): string[] {
  const added = (options.addDir ?? []).map((dir) => (isAbsolute(dir) ? dir : resolve(io.cwd, dir)))
  if (!enabled) return added
  const listing = registryTarget(new RootRegistry({ dshHome: dshHomeFrom(io, options.dshHome) }), cwd).list()
  return [...listing.roots.filter((root) => root.state === 'available').map((root) => root.path), ...added]
}

/** What the writable directory at `index` is: the working directory, additional roots, temp, then sandbox.writable. */
function rootKind(index: number, additional: number): string {
  if (index === 0) return 'working directory'
  if (index <= additional) return 'additional root'
  return index === additional + 1 ? 'temp: a private directory there, removed when dsh ends' : 'sandbox.writable'
}

function resultLine(result: SelfTestResult): string {
  const ok = result.actual === result.expected
  return `  ${ok ? 'ok  ' : 'FAIL'} ${result.what}: ${result.actual}${ok ? '' : ` (expected ${result.expected})`}${result.detail === undefined ? '' : ` — ${result.detail}`}`
}

/** Runs the command; returns the exit code. */
export async function sandboxCheckCommand(io: CliIo, options: SandboxCheckOptions): Promise<number> {
  const cwd = cwdFrom(io, options.cwd)
  const config = configFrom(io, options.config)
  const permissions = permissionsFrom(options, 'full-auto')
  const warnings: string[] = []
  const { mode, launcher } = sandboxSetup({ config, permissions, interactive: false, log: (text) => warnings.push(text), dshHome: dshHomeFrom(io, options.dshHome), configPath: options.config === undefined ? undefined : resolve(io.cwd, options.config) })
  const network = config.sandbox?.network ?? true
  const additional = rootsOf(io, options, cwd, multiRootEnabled(config))
  const kind = sandboxOf(mode)
  const extra = config.sandbox?.writable ?? []
  const writable = kind === 'read-only' ? [] : [cwd, ...additional, tmpdir(), ...extra]
  line(io, `mode: ${modeLabel(mode)}${permissions.mode === undefined && config.permissions?.mode === undefined ? ' (the dsh run default; chat, ACP and web default to ask)' : ''}`)
  const status = launcher.status()
  const sandbox = status.kind === 'available' ? 'bubblewrap (available)' : status.kind === 'missing' ? 'none: bubblewrap (bwrap) is not installed' : `none: bubblewrap cannot start (${status.detail})`
  line(io, `sandbox: ${kind === 'none' ? 'off (danger-full-access: shell commands run unsandboxed)' : sandbox}`)
  line(io, 'writable from the shell:')
  if (kind === 'read-only') line(io, `  nothing (read-only; ${tmpdir()} is a private empty directory)`)
  else for (const [index, root] of writable.entries()) line(io, `  ${root} (${rootKind(index, additional.length)})`)
  line(io, `network: ${network ? 'on' : 'off (sandbox.network: false)'}`)
  line(io, `read-only inside the roots: .git/config, .git/hooks, .git/info (nested repositories, submodules and worktrees too), .dsh*, .claude, .vscode, .idea, .envrc, .mcp.json, dsh's home and config file, and the executable files the repository tracks (the ${MAX_BOUND_EXECUTABLES} shallowest bound; the rest, and hook files in the work tree, put back when a command changes them)`)
  line(io, `reverted when a command creates them: those names where they do not exist yet, a .git at the top of a root, and a new repository below it holding a hook or a config key that runs a program (moved to ${join(dshHomeFrom(io, options.dshHome), 'quarantine')})`)
  line(io, 'hidden: session sockets (ssh-agent, tmux, D-Bus, X11, $XDG_RUNTIME_DIR), credential stores (~/.ssh, ~/.aws, ~/.gnupg, ~/.netrc, …), dsh\'s sessions and history')
  line(io, 'not confined: other reads (the rest of the filesystem is readable), and the structured write and edit tools, which have their own root check')
  if (launcher.weakened !== undefined) line(io, `warning: the sandbox is weakened for a test (DSH_TEST_WEAKEN_SANDBOX): ${sandboxWeakenings[launcher.weakened]}`)
  if (kind === 'none' || status.kind !== 'available') {
    line(io, kind === 'none' ? 'self-test: skipped (no sandbox in danger-full-access)' : 'self-test: skipped (no sandbox)')
    return kind === 'none' ? 0 : 1
  }
  const results = await sandboxSelfTest({ launcher, cwd, writableRoots: writable, network, writesInside: kind !== 'read-only', dispose: () => launcher.dispose() })
  launcher.dispose()
  line(io, 'self-test:')
  for (const result of results) line(io, resultLine(result))
  return results.every((result) => result.actual === result.expected) ? 0 : 1
}
