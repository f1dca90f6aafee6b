/**
 * `dsh skills list|show|trust`: the Agent Skills and custom commands of the working directory's
 * project. `list` prints one line per skill (name, state: active / shadowed / broken / untrusted,
 * scope, path, description) and per command; `show NAME` prints a skill's fields and body; `trust`
 * records the digest of every project SKILL.md in `$DSH_HOME/skills-trust.json` (a changed file is
 * untrusted again), as `dsh mcp trust` pins `.mcp.json`.
 */
import type { Command } from 'commander'
import { usageError } from '../cli-error.ts'
import type { CliIo } from '../cli-io.ts'

/** Options of the `dsh skills` commands. */
interface SkillsOptions {
  readonly dshHome?: string
  readonly cwd?: string
}

async function load(io: CliIo, options: SkillsOptions) {
  const [skills, { cwdFrom, dshHomeFrom }, { createLocalFileSystem }, { userHome }, { terminalText }] = await Promise.all([import('@dsh/skills'), import('../global-options.ts'), import('@dsh/fs-local'), import('@dsh/runtime'), import('@dsh/workspace-context')])
  const dshHome = dshHomeFrom(io, options.dshHome)
  const found = await skills.loadWorkspaceSkills({ fs: createLocalFileSystem({ writableRoots: [] }), cwd: cwdFrom(io, options.cwd), dshHome, home: userHome(io.env['HOME']) })
  for (const line of found.problems) io.stderr.write(`warning: ${terminalText(line)}\n`)
  return { skills, found, dshHome, safe: terminalText }
}

async function list(io: CliIo, options: SkillsOptions): Promise<number> {
  const { skills, found, safe } = await load(io, options)
  io.stdout.write(safe(skills.formatSkillList(found.skills, found.commands)))
  return 0
}

async function show(io: CliIo, name: string, options: SkillsOptions): Promise<number> {
  const { skills, found, safe } = await load(io, options)
  const text = skills.formatSkillShow(found.skills, name)
  if (text === undefined) throw usageError(`skills show: no skill named ${JSON.stringify(name)} here; dsh skills list shows them`)
  io.stdout.write(safe(text))
  return 0
}

async function trust(io: CliIo, options: SkillsOptions): Promise<number> {
  const { skills, found, dshHome } = await load(io, options)
  const project = found.skills.entries.flatMap((entry) => (entry.skill.kind === 'skill' && entry.skill.source.scope !== 'user' ? [entry.skill] : []))
  if (project.length === 0) throw usageError(`skills trust: the project ${found.skills.projectRoot} has no skills to trust`)
  skills.writeTrust(dshHome, found.skills.projectRoot, Object.fromEntries(project.map((skill) => [skill.file, skill.digest])))
  const granting = project.filter((skill) => skill.meta.allowedTools.length > 0).map((skill) => skill.meta.name)
  io.stdout.write(`trusted ${project.length} project skill file${project.length === 1 ? '' : 's'} of ${found.skills.projectRoot}${granting.length === 0 ? '' : ` (with allowed-tools: ${granting.join(', ')})`}; a changed file is untrusted again\n`)
  return 0
}

const common = (command: Command): Command => command.option('--cwd <dir>', 'working directory whose project is meant (default: the current directory)')

/** Adds the `skills` command group to `program`. */
export function registerSkillsCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const group = program.command('skills').description('Agent Skills (SKILL.md folders) and custom commands of the working directory')
  common(group.command('list', { isDefault: true }).description('one line per skill (name, state, scope, path, description) and per command')).action(async (_options: unknown, command: Command) => setExit(await list(io, command.optsWithGlobals<SkillsOptions>())))
  common(group.command('show').description('a skill\'s fields and instructions').argument('<name>', 'the skill')).action(async (name: string, _options: unknown, command: Command) => setExit(await show(io, name, command.optsWithGlobals<SkillsOptions>())))
  common(group.command('trust').description('trust the project\'s skill files as they are now (digests recorded; a changed file is untrusted again)')).action(async (_options: unknown, command: Command) => setExit(await trust(io, command.optsWithGlobals<SkillsOptions>())))
}
