/**
 * `dsh roots list | add PATH | remove N|PATH|ID | alias N|PATH [NAME]`: the additional workspace
 * roots registered for the working directory (`--cwd`, else the invocation directory) in
 * `$DSH_HOME`. Relative paths resolve against the invocation directory. A refusal prints its code
 * and a one-line explanation and exits 2; an unreadable or busy registry exits 1.
 */
import { isAbsolute, resolve } from 'node:path'
import type { Command } from 'commander'
import type { RootsTarget } from '@dsh/multi-root-workspace'
import { CliError, usageError } from '../cli-error.ts'
import type { CliIo } from '../cli-io.ts'

/** Options of every `dsh roots` command. */
interface RootsOptions {
  readonly dshHome?: string
  readonly cwd?: string
  readonly json?: boolean
  readonly alias?: string
}

/** A path argument: relative ones resolve against the invocation directory; `~` is left to expand. */
const pathArgument = (io: CliIo, path: string): string => (isAbsolute(path) || path === '~' || path.startsWith('~/') ? path : resolve(io.cwd, path))

/** A reference: numbers and ids as typed, paths as {@link pathArgument}. */
const referenceArgument = (io: CliIo, reference: string): string => (/^\d+$/u.test(reference) || !/[/\\]|^\./u.test(reference) ? reference : pathArgument(io, reference))

/** The multi-root package, loaded when a roots command runs. */
type Roots = typeof import('@dsh/multi-root-workspace')

async function run(io: CliIo, options: RootsOptions, work: (target: RootsTarget, roots: Roots, dshHome: string) => Promise<string>): Promise<number> {
  const [roots, { cwdFrom, dshHomeFrom }] = await Promise.all([import('@dsh/multi-root-workspace'), import('../global-options.ts')])
  const { isBadInput, isRootsError } = roots
  const primary = cwdFrom(io, options.cwd)
  const dshHome = dshHomeFrom(io, options.dshHome)
  const target = roots.registryTarget(new roots.RootRegistry({ dshHome }), primary)
  try {
    io.stdout.write(`${await work(target, roots, dshHome)}\n`)
    return 0
  } catch (error) {
    // Refusals and registry failures are expected outcomes with a stable code; others propagate.
    if (!isRootsError(error)) throw error
    throw new CliError(`${error.code}: ${error.message}`, isBadInput(error.code) ? 2 : 1)
  }
}

/** Adds the `roots` command group to `program`. */
export function registerRootsCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const roots = program.command('roots').description('additional workspace roots of the working directory (registered in $DSH_HOME)')
  roots
    .command('list', { isDefault: true })
    .description('list the additional roots with their states')
    .option('--cwd <dir>', 'primary root (default: the current directory)')
    .option('--json', 'machine-readable output')
    // `list` is the default: a word it does not take is a verb of `dsh roots` that does not exist.
    .allowExcessArguments()
    .action(async (_options: unknown, command: Command) => {
      const [word] = command.args
      if (word !== undefined) throw usageError(`roots: unknown command ${JSON.stringify(word.slice(0, 40))} (list, add, remove, alias); see dsh roots --help`)
      const options = command.optsWithGlobals<RootsOptions>()
      setExit(await run(io, options, (target, { listingText }) => Promise.resolve(options.json === true ? JSON.stringify(target.list(), null, 2) : listingText(target.list(), 'dsh roots add PATH'))))
    })
  roots
    .command('add')
    .description('register a directory as an additional root of the working directory')
    .argument('<path>', 'the directory')
    .option('--alias <name>', 'a short name shown with the path')
    .option('--cwd <dir>', 'primary root (default: the current directory)')
    .action(async (path: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals<RootsOptions>()
      setExit(
        await run(io, options, async (target, { addRoot, riskyRootWarning }, dshHome) => {
          const text = await addRoot(target, pathArgument(io, path), options.alias === undefined ? {} : { alias: options.alias })
          const { userHome } = await import('@dsh/runtime')
          const warning = riskyRootWarning(pathArgument(io, path), { home: userHome(), dshHome })
          if (warning !== undefined) io.stderr.write(`${warning}\n`)
          return text
        }),
      )
    })
  roots
    .command('remove')
    .description('forget an additional root')
    .argument('<ref>', 'its number in the list, its path or its id')
    .option('--cwd <dir>', 'primary root (default: the current directory)')
    .action(async (reference: string, _options: unknown, command: Command) => {
      setExit(await run(io, command.optsWithGlobals<RootsOptions>(), async (target, { removedText }) => removedText(await target.remove(referenceArgument(io, reference)))))
    })
  roots
    .command('alias')
    .description('name an additional root, or clear its name')
    .argument('<ref>', 'its number in the list or its path')
    .argument('[name]', 'the new name (omit to clear it)')
    .option('--cwd <dir>', 'primary root (default: the current directory)')
    .action(async (reference: string, name: string | undefined, _options: unknown, command: Command) => {
      setExit(await run(io, command.optsWithGlobals<RootsOptions>(), async (target, { aliasText }) => aliasText(await target.alias(referenceArgument(io, reference), name))))
    })
}
