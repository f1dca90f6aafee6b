/**
 * The `dsh` command tree (ARCHITECTURE §4). Commands receive a {@link CliIo}; parsing errors
 * become exit code 2, failures exit code 1, each as one line on stderr.
 */
import { errorMessage } from '@dsh/runtime'
import { Command, CommanderError, InvalidArgumentError } from 'commander'
import { CliError } from './cli-error.ts'
import { chatCommand, type ChatOptions } from './chat/chat-command.ts'
import type { CliIo } from './cli-io.ts'
import { compactCommand } from './commands/compact.ts'
import { contextCommand, contextWhyCommand } from './commands/context.ts'
import { runCommand, type RunOptions } from './commands/run.ts'
import { listSessions, showSession } from './commands/sessions.ts'
import { version } from './version.ts'

const positiveInt = (value: string): number => {
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('expected a positive integer')
  return parsed
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value]

/** Builds the program; `setExit` receives each command's exit code. */
export function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command('dsh')
    .description('A coding agent with durable, session-scoped workspace context')
    .version(version, '-v, --version')
    .option('--dsh-home <dir>', 'dsh home directory (default: $DSH_HOME, else ~/.dsh)')
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .exitOverride()
    .showHelpAfterError('(run dsh --help for usage)')

  program
    .command('run')
    .description('run one turn and print the final answer')
    .argument('<prompt...>', 'what to ask the agent')
    .option('--cwd <dir>', 'working directory of the session')
    .option('--model <spec>', 'deepseek:<model> (default deepseek:deepseek-chat), openai:<model>, or scripted:<file.json>')
    .option('--base-url <url>', 'base URL of an OpenAI-compatible endpoint')
    .option('--config <file>', 'YAML config file')
    .option('--add-dir <dir>', 'additional workspace root (repeatable)', collect)
    .option('--resume <id>', 'continue a stored session')
    .option('--request-log <file>', 'append every model request body as one JSON line')
    .option('--max-steps <n>', 'step limit per turn', positiveInt)
    .action(async (words: string[], _options: RunOptions, command: Command) => {
      setExit(await runCommand(io, words.join(' '), command.optsWithGlobals<RunOptions>()))
    })

  program
    .command('chat')
    .description('interactive session in the terminal (streams answers, shows tool calls, /help for commands)')
    .option('--cwd <dir>', 'working directory of the session')
    .option('--model <spec>', 'deepseek:<model> (default deepseek:deepseek-chat), openai:<model>, or scripted:<file.json>')
    .option('--base-url <url>', 'base URL of an OpenAI-compatible endpoint')
    .option('--config <file>', 'YAML config file')
    .option('--resume [id]', 'continue a stored session (an id or a unique prefix; without one, pick from a list)')
    .option('--continue', 'continue the latest session of this directory')
    .option('--yes', 'run bash commands and run_code snippets without asking')
    .option('--request-log <file>', 'append every model request body as one JSON line')
    .option('--max-steps <n>', 'step limit per turn', positiveInt)
    .action(async (_options: ChatOptions, command: Command) => {
      setExit(await chatCommand(io, command.optsWithGlobals<ChatOptions>()))
    })

  const context = program
    .command('context')
    .description('the instruction baseline a new session would get, and every candidate examined')
    .option('--cwd <dir>', 'working directory to inspect')
    .option('--config <file>', 'YAML config file (its workspaceContext section applies)')
    .option('--json', 'machine-readable output')
    .action(async (_options: unknown, command: Command) => {
      setExit(await contextCommand(io, command.optsWithGlobals()))
    })
  context
    .command('why')
    .description('which instruction files apply to work on PATH, in order, and why')
    .argument('<path>', 'file or directory (relative to --cwd)')
    .option('--json', 'machine-readable output')
    .action(async (path: string, _options: unknown, command: Command) => {
      setExit(await contextWhyCommand(io, path, command.optsWithGlobals()))
    })

  const sessions = program.command('sessions').description('stored sessions')
  sessions
    .command('list')
    .description('list stored sessions, newest first')
    .option('--json', 'machine-readable output')
    .action((_options: unknown, command: Command) => {
      setExit(listSessions(io, command.optsWithGlobals()))
    })
  sessions
    .command('show')
    .description('show a stored session')
    .argument('<id>', 'session id')
    .option('--messages', 'print the model-visible history')
    .action((id: string, _options: unknown, command: Command) => {
      setExit(showSession(io, id, command.optsWithGlobals()))
    })

  program
    .command('compact')
    .description('compact a stored session (history before its last turn becomes a checkpoint)')
    .argument('<id>', 'session id')
    .option('--model <spec>', 'write the summary with this model (default: deterministic summary)')
    .option('--base-url <url>', 'base URL of an OpenAI-compatible endpoint')
    .option('--config <file>', 'YAML config file (its model.spec is used when --model is absent)')
    .action(async (id: string, _options: unknown, command: Command) => {
      setExit(await compactCommand(io, id, command.optsWithGlobals()))
    })
  return program
}

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(io: CliIo, argv: readonly string[]): Promise<number> {
  let exitCode = 0
  const program = buildProgram(io, (code) => {
    exitCode = code
  })
  try {
    await program.parseAsync([...argv], { from: 'user' })
    return exitCode
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit through commander with code 0; usage errors already printed their line.
      return error.exitCode === 0 ? 0 : 2
    }
    if (error instanceof CliError) {
      io.stderr.write(`dsh: ${error.message}\n`)
      return error.exitCode
    }
    io.stderr.write(`dsh: ${errorMessage(error)}\n`)
    return 1
  }
}
