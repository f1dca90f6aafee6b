/**
 * Custom command files: `<dir>/.dsh/commands/**.md` and `<dir>/.claude/commands/**.md` for every
 * directory from the cwd up to the project root (more specific first, `.dsh` before `.claude`),
 * then `$DSH_HOME/commands/**.md`, then `~/.claude/commands/**.md` (Claude Code's personal
 * commands); a user folder that is one of the chain's already (a home inside the chain) is read
 * once, as a project one. A file `deploy.md` is `/deploy`; `ops/deploy.md` is
 * `/ops:deploy` (two levels of subfolders at most). The first file of a name wins; later ones are
 * kept as shadowed; dsh's bundled commands (`/init`: bundled-commands.ts) come after every file. Front matter is optional (`description`, `argument-hint`); a file that cannot
 * be read or parsed is one problem line. Reads are bounded and link-checked like skills.
 */
import { join } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { chainDirs, probeCandidate, readBounded, type LinkPolicy } from '@dsh/workspace-context'
import { quotedLine, splitFrontMatter } from './front-matter.ts'
import { reasonText } from './scan.ts'
import { BUNDLED_COMMANDS } from './bundled-commands.ts'
import type { CommandFile } from './types.ts'

/** Allowed command name parts. */
const PART = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/

/** Inputs of {@link discoverCommands}. */
export interface CommandsInput {
  readonly fs: FileSystemPort
  readonly projectRoot: string
  readonly cwd: string
  readonly dshHome: string
  /** The OS home (for `~/.claude/commands`). */
  readonly home: string
  readonly policy: LinkPolicy
  readonly maxBytes: number
  readonly signal?: AbortSignal | undefined
}

/** Every command file and the problems found. */
export interface CommandsFound {
  readonly commands: readonly CommandFile[]
  readonly problems: readonly string[]
}

async function listMarkdown(fs: FileSystemPort, dir: string, prefix: string[], depth: number, signal: AbortSignal | undefined): Promise<{ name: string; file: string }[]> {
  let entries
  try {
    if ((await fs.stat(dir, signal))?.type !== 'directory') return []
    entries = await fs.listDir(dir, signal)
  } catch (error) {
    // An unreadable commands folder offers no commands now; the next look tries again.
    if (signal?.aborted === true) throw error
    return []
  }
  const found: { name: string; file: string }[] = []
  for (const entry of entries) {
    if (entry.type === 'directory' && depth < 2 && PART.test(entry.name)) found.push(...(await listMarkdown(fs, join(dir, entry.name), [...prefix, entry.name], depth + 1, signal)))
    else if (entry.type !== 'directory' && entry.name.endsWith('.md') && PART.test(entry.name.slice(0, -3))) found.push({ name: [...prefix, entry.name.slice(0, -3)].join(':'), file: join(dir, entry.name) })
  }
  return found
}

/** The user's command folders in precedence order: `$DSH_HOME/commands`, `~/.claude/commands` (also link roots: workspace-skills.ts). */
export const userCommandDirs = (input: Pick<CommandsInput, 'dshHome' | 'home'>): string[] => [join(input.dshHome, 'commands'), join(input.home, '.claude', 'commands')]

/** Finds the command files of `input.cwd`. */
export async function discoverCommands(input: CommandsInput): Promise<CommandsFound> {
  const dirs: { dir: string; scope: CommandFile['scope'] }[] = []
  for (const dir of chainDirs(input.projectRoot, input.cwd).toReversed()) for (const family of ['.dsh', '.claude']) dirs.push({ dir: join(dir.abs, family, 'commands'), scope: 'project' })
  // A home inside the chain (dsh run in ~) offers its `.claude/commands` once, as a project folder.
  for (const dir of userCommandDirs(input)) if (!dirs.some((earlier) => earlier.dir === dir)) dirs.push({ dir, scope: 'user' })
  const commands: CommandFile[] = []
  const problems: string[] = []
  const winners = new Map<string, string>()
  for (const { dir, scope } of dirs) {
    for (const { name, file } of await listMarkdown(input.fs, dir, [], 0, input.signal)) {
      const probe = await probeCandidate(input.fs, file, name, input.policy, input.signal)
      if (probe.state === 'absent') continue
      if (probe.state === 'unavailable') {
        problems.push(`command ${file}: ${reasonText(probe.reason, probe.detail)}; it is not loaded`)
        continue
      }
      const read = await readBounded(input.fs, probe.target, input.maxBytes, probe.info.size, input.signal)
      const split = read.ok ? splitFrontMatter(read.text) : undefined
      if (!read.ok || split === undefined || !split.ok) {
        problems.push(`command ${file}: ${!read.ok ? read.reason : split !== undefined && !split.ok ? split.problem : 'unreadable'}; it is not loaded`)
        continue
      }
      if (split.quoted.length > 0) problems.push(quotedLine('command', file, split.quoted))
      const description = typeof split.fields['description'] === 'string' ? split.fields['description'].trim() : undefined
      const hint = typeof split.fields['argument-hint'] === 'string' ? split.fields['argument-hint'].trim() : undefined
      const winner = winners.get(name)
      if (winner === undefined) winners.set(name, file)
      commands.push({ name, file, body: split.body, scope, ...(description === undefined ? {} : { description }), ...(hint === undefined ? {} : { argumentHint: hint }), ...(winner === undefined ? {} : { shadowedBy: winner }) })
    }
  }
  for (const bundled of BUNDLED_COMMANDS) {
    const winner = winners.get(bundled.name)
    commands.push(winner === undefined ? bundled : { ...bundled, shadowedBy: winner })
  }
  return { commands, problems }
}
