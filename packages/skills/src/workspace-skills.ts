/**
 * Skills and commands of a working directory outside a session (`dsh run` expansion, `dsh skills`,
 * `dsh context`): one discovery of each with the trust store read from `$DSH_HOME`. Problems of
 * both come back as lines for the caller to print.
 */
import type { FileSystemPort } from '@dsh/contracts'
import { discoverCommands, userCommandDirs } from './commands.ts'
import { canonical, discoverSkills } from './discover.ts'
import { DEFAULT_MAX_SKILL_BYTES } from './scan.ts'
import { readTrust } from './trust-store.ts'
import type { CommandFile, SkillSet } from './types.ts'

/** Inputs of {@link loadWorkspaceSkills}. */
export interface WorkspaceSkillsInput {
  readonly fs: FileSystemPort
  /** Canonical working directory. */
  readonly cwd: string
  readonly dshHome: string
  readonly home: string
  readonly additionalRoots?: readonly string[]
  /** Directories below the cwd whose skills count as joined (`dsh context why PATH`). */
  readonly nestedDirs?: readonly string[]
  readonly signal?: AbortSignal
}

/** What a working directory offers. */
export interface WorkspaceSkills {
  readonly skills: SkillSet
  readonly commands: readonly CommandFile[]
  /** Broken skill and command files and an unusable trust store, one line each. */
  readonly problems: readonly string[]
}

/** Discovers the skills and commands of `input.cwd`. */
export async function loadWorkspaceSkills(input: WorkspaceSkillsInput): Promise<WorkspaceSkills> {
  const trust = readTrust(input.dshHome)
  const skills = await discoverSkills({ ...input, trust: trust.ok ? trust.projects : {} })
  // Links are followed into the skills' trusted roots and into the user's commands folders themselves (a file linked within one).
  const userCommands = await Promise.all(userCommandDirs(input).map((dir) => canonical(input.fs, dir, input.signal)))
  const policy = { followSymlinks: true, trustedRoots: { fixed: [...skills.linkRoots, ...userCommands], extra: () => [] } }
  const commands = await discoverCommands({ fs: input.fs, projectRoot: skills.projectRoot, cwd: input.cwd, dshHome: input.dshHome, home: input.home, policy, maxBytes: DEFAULT_MAX_SKILL_BYTES, signal: input.signal })
  return { skills, commands: commands.commands, problems: [...(trust.ok ? [] : [trust.problem]), ...skills.problems, ...commands.problems] }
}
