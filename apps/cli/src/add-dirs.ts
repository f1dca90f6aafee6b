/**
 * `--add-dir DIR` (repeatable) on `dsh run` and `dsh chat`: additional roots for the session this
 * command runs, validated like registered ones and never persisted. A new session's directories
 * are checked before it is created, so bad input creates no session; a resumed session's are
 * checked against its own working directory once it is open. Relative directories resolve against
 * the invocation directory. A refusal is a usage error naming the directory and the rule.
 *
 * The directories belong to the command, not to the first session: a chat that switches sessions
 * with `/resume` or `/new` grants them to the session it switches to as well (what `dsh chat --resume ID
 * --add-dir DIR` would do), so the person keeps the scope they started the chat with. There a
 * refusal (a directory that overlaps that session's working directory) is a line, not an exit.
 */
import { resolve } from 'node:path'
import type { WorkspaceRoot, WorkspaceRootErrorCode } from '@dsh/contracts'
import { isRootsError, refusedSessionDirectory, RootRegistry, SessionRoots } from '@dsh/multi-root-workspace'
import { terminalLine } from '@dsh/workspace-context'
import type { Agent } from '@dsh/runtime'
import { configFrom, type AgentSetup, type AgentSetupOptions } from './agent-setup.ts'
import { usageError } from './cli-error.ts'
import type { CliIo } from './cli-io.ts'
import { cwdFrom, dshHomeFrom } from './global-options.ts'
import { multiRootEnabled } from './multi-root-config.ts'

/** Absolute forms of the `--add-dir` values. */
export const absoluteDirs = (io: CliIo, dirs: readonly string[] | undefined): string[] => (dirs ?? []).map((dir) => resolve(io.cwd, dir))

/** Grants `dirs` in order and returns the roots granted; a refusal goes to `refused` (which may throw to stop). */
async function grant(roots: Pick<SessionRoots, 'addForSession'>, dirs: readonly string[], refused: (line: string, code: WorkspaceRootErrorCode) => void): Promise<WorkspaceRoot[]> {
  const granted: WorkspaceRoot[] = []
  for (const dir of dirs) {
    try {
      granted.push(await roots.addForSession(dir))
    } catch (error) {
      // Validation failures are the person's input; anything else is a failure of dsh itself.
      if (!isRootsError(error)) throw error
      refused(`--add-dir ${dir}: ${error.code}: ${error.message}`, error.code)
    }
  }
  return granted
}

const refuse = (line: string): never => {
  throw usageError(line)
}

/** Checks the directories for a new session before anything else is set up (bad input first). */
export async function checkAddDirs(io: CliIo, options: AgentSetupOptions, dirs: readonly string[] | undefined): Promise<void> {
  if (dirs === undefined || dirs.length === 0) return
  // Quiet: the setup that follows reads the file again and reports its deprecated keys once.
  if (!multiRootEnabled(configFrom(io, options.config, () => undefined))) throw usageError('--add-dir: additional workspace roots are disabled (multiRootWorkspace.enabled is false in the config file)')
  const registry = new RootRegistry({ dshHome: dshHomeFrom(io, options.dshHome) })
  await grant(new SessionRoots({ registry, sessionId: 'check', primary: cwdFrom(io, options.cwd) }), absoluteDirs(io, dirs), refuse)
}

/** Grants the directories to `agent`'s session. */
export async function grantAddDirs(io: CliIo, setup: AgentSetup, agent: Agent, dirs: readonly string[] | undefined): Promise<void> {
  if (dirs === undefined || dirs.length === 0) return
  const service = setup.host.ctx.get('workspaceRoots')
  if (service === undefined) throw usageError('--add-dir: additional workspace roots are disabled (multiRootWorkspace.enabled is false in the config file)')
  await grant(service.session(agent.session), absoluteDirs(io, dirs), refuse)
}

/**
 * Grants the chat's `--add-dir` directories (absolute) to the session `/resume` or `/new` switched to.
 * Returns the lines to show: the directories granted, and one line per refusal (not granted).
 */
export async function regrantAddDirs(setup: AgentSetup, agent: Agent, dirs: readonly string[]): Promise<string[]> {
  const service = setup.host.ctx.get('workspaceRoots')
  if (dirs.length === 0 || service === undefined) return []
  const refusals: string[] = []
  const granted = await grant(service.session(agent.session), dirs, (line, code) => {
    // A directory that is already one of the session's roots (registered meanwhile) is granted.
    if (code !== 'duplicate') refusals.push(`${line} (not granted to this session)`)
  })
  const paths = granted.map((root) => terminalLine(root.path))
  return [...(paths.length === 0 ? [] : [`this chat's --add-dir directories are granted to it too: ${paths.join(', ')}`]), ...refusals.map(terminalLine)]
}

/**
 * Checks the additional directories (absolute) of a new session working in `primary` as
 * `--add-dir` does (an editor's `additionalDirectories`, `dsh acp`): the first refusal as one line
 * naming the directory and the rule, or undefined when every one is valid. A directory that is
 * already a root (registered with `dsh roots add`, or named twice) is not refused: an editor sends
 * its workspace folders as they are, the person cannot change them, and the directory is a root
 * of the session either way.
 */
export async function refusedDirectory(setup: Pick<AgentSetup, 'dshHome' | 'config'>, primary: string, dirs: readonly string[]): Promise<string | undefined> {
  if (dirs.length === 0) return undefined
  if (!multiRootEnabled(setup.config)) return `${dirs[0] ?? ''}: additional workspace roots are disabled (multiRootWorkspace.enabled is false in the config file)`
  return refusedSessionDirectory({ dshHome: setup.dshHome, primary, dirs })
}
