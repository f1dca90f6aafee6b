/**
 * `--add-dir DIR` (repeatable) on `dsh run` and `dsh chat`: additional roots for the session this
 * command runs, validated like registered ones and never persisted. A new session's directories
 * are checked before it is created, so bad input creates no session; a resumed session's are
 * checked against its own working directory once it is open. Relative directories resolve against
 * the invocation directory. A refusal is a usage error naming the directory and the rule.
 */
import { resolve } from 'node:path'
import { isRootsError, RootRegistry, SessionRoots } from '@dsh/multi-root-workspace'
import type { Agent } from '@dsh/runtime'
import { configFrom, type AgentSetup, type AgentSetupOptions } from './agent-setup.ts'
import { usageError } from './cli-error.ts'
import type { CliIo } from './cli-io.ts'
import { cwdFrom, dshHomeFrom } from './global-options.ts'
import { multiRootEnabled } from './multi-root-config.ts'

/** Absolute forms of the `--add-dir` values. */
const absoluteDirs = (io: CliIo, dirs: readonly string[] | undefined): string[] => (dirs ?? []).map((dir) => resolve(io.cwd, dir))

async function grant(roots: Pick<SessionRoots, 'addForSession'>, dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    try {
      await roots.addForSession(dir)
    } catch (error) {
      // Validation failures are the person's input; anything else is a failure of dsh itself.
      if (!isRootsError(error)) throw error
      throw usageError(`--add-dir ${dir}: ${error.code}: ${error.message}`)
    }
  }
}

/** Checks the directories for a new session before anything else is set up (bad input first). */
export async function checkAddDirs(io: CliIo, options: AgentSetupOptions, dirs: readonly string[] | undefined): Promise<void> {
  if (dirs === undefined || dirs.length === 0) return
  if (!multiRootEnabled(configFrom(io, options.config))) throw usageError('--add-dir: additional workspace roots are disabled (multiRootWorkspace.enabled is false in the config file)')
  const registry = new RootRegistry({ dshHome: dshHomeFrom(io, options.dshHome) })
  await grant(new SessionRoots({ registry, sessionId: 'check', primary: cwdFrom(io, options.cwd) }), absoluteDirs(io, dirs))
}

/** Grants the directories to `agent`'s session. */
export async function grantAddDirs(io: CliIo, setup: AgentSetup, agent: Agent, dirs: readonly string[] | undefined): Promise<void> {
  if (dirs === undefined || dirs.length === 0) return
  const service = setup.host.ctx.get('workspaceRoots')
  if (service === undefined) throw usageError('--add-dir: additional workspace roots are disabled (multiRootWorkspace.enabled is false in the config file)')
  await grant(service.session(agent.session), absoluteDirs(io, dirs))
}
