/**
 * Registration of `dsh rewind` and `dsh checkpoints prune` (their code, in rewind.ts, is loaded
 * only when one of them runs).
 */
import type { Command } from 'commander'
import type { CliIo } from '../cli-io.ts'

/** Registers `rewind` and `checkpoints`. */
export function registerRewindCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('rewind')
    .description('undo turns of a session: its files, its conversation, or both (see README "Undo a turn")')
    .argument('<id>', 'session id (a unique prefix is enough)')
    .option('--list', 'list the turns with the files each changed')
    .option('--to <n>', 'put files and conversation back as they were before turn N')
    .option('--code-only', 'with --to: files only')
    .option('--conversation-only', 'with --to: conversation only')
    .option('--undo', 'undo the last rewind')
    .option('--force', 'restore files even when they changed outside dsh')
    .action(async (id: string, _options: unknown, command: Command) => {
      const { rewindCommand } = await import('./rewind.ts')
      setExit(rewindCommand(io, id, command.optsWithGlobals()))
    })
  const checkpoints = program.command('checkpoints').description('the checkpoints dsh rewind restores from ($DSH_HOME/checkpoints)')
  checkpoints
    .command('prune')
    .description('remove the checkpoints of sessions not used for a while, and of sessions that are gone')
    .option('--older-than <age>', 'age like 30d, 12h or 90m', '30d')
    .action(async (_options: unknown, command: Command) => {
      const { pruneCommand } = await import('./rewind.ts')
      setExit(pruneCommand(io, command.optsWithGlobals()))
    })
}
