/**
 * The `dsh` command tree (ARCHITECTURE §4). Commands receive a {@link CliIo}. Every error is one
 * line on stderr starting `dsh: `, commander's own parsing errors included (they name the command
 * whose `--help` explains it); usage errors exit 2, failures 1. `--help` of each command ends with
 * examples and the environment variables it reads; `dsh help [COMMAND…]` prints the same, and an
 * unknown command is a usage error. A command's code is loaded when it runs (`--version` and
 * `--help` load none of it).
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { CliError, usageError } from './cli-error.ts'
import type { ChatOptions } from './chat/chat-command.ts'
import type { CliIo } from './cli-io.ts'
import type { AcpOptions } from './commands/acp.ts'
import type { DocsOptions } from './commands/docs.ts'
import { registerRootsCommands } from './commands/roots.ts'
import { registerMcpCommands } from './commands/mcp.ts'
import { registerSkillsCommands } from './commands/skills.ts'
import { registerRewindCommands } from './commands/rewind-commands.ts'
import type { RunOptions } from './commands/run.ts'
import type { WebOptions } from './commands/web.ts'
import { commandHelp } from './help-text.ts'
import { STREAM_JSON_SCHEMA_PATH } from './headless/stream-json-types.ts'
import { defaultModelSpec } from './model-spec.ts'
import { foldClaudeFlags } from './claude-flags.ts'
import { interactiveAlias } from './interactive-alias.ts'
import { printAlias } from './print-alias.ts'
import { version } from './version.ts'

/** Step limit per turn when `--max-steps` is absent. */
export const DEFAULT_MAX_STEPS = 200

const positiveInt = (value: string): number => {
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('expected a positive integer')
  return parsed
}

const port = (value: string): number => {
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free one)')
  return parsed
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value]

const modelSpecHelp = 'deepseek:<model>, openai:<model> or scripted:<file.json>'

/** The `--resume` of `dsh run`. */
const resumeOption = { flags: '-r, --resume <id>', help: 'continue a stored session (it keeps its own directory)' } as const

/** The options every command that runs an agent takes; `resume` is its `--resume` (`null`: none). */
function agentOptions(command: Command, resume: { readonly flags: string; readonly help: string } | null): Command {
  command
    .option('--cwd <dir>', 'working directory of the session (default: the current directory)')
    .option('--model <spec>', `${modelSpecHelp} (default: model.spec of --config, else ${defaultModelSpec})`)
    .option('--base-url <url>', 'base URL of an OpenAI-compatible endpoint')
    .option('--thinking', 'DeepSeek: send thinking {type: enabled} (default: model.thinking of --config, else not sent; DeepSeek thinks by default)')
    .option('--no-thinking', 'DeepSeek: send thinking {type: disabled}')
    .option('--effort <level>', 'DeepSeek reasoning_effort: low, high or max (default: model.reasoningEffort, else not sent)')
    .option('--config <file>', 'YAML config file (keys: see README.md, "Configuration")')
    .option('--add-dir <dir>', 'additional workspace root for this session only (repeatable; see dsh roots)', collect)
    .option('--mcp-config <file>', 'MCP servers for this process only, in the .mcp.json shape (repeatable; see dsh mcp)', collect)
  if (resume !== null) command.option(resume.flags, resume.help)
  return command
    .option('--request-log <file>', 'append every model request body as one JSON line')
    .option('--max-steps <n>', 'step limit per turn', positiveInt, DEFAULT_MAX_STEPS)
    .option('--permission-mode <mode>', 'read-only, ask, auto-edit, full-auto or danger-full-access (default: run full-auto, others ask; see README "Safety")')
    .option('--allow <rule>', 'allow matching calls without asking, e.g. \'bash(npm test*)\' (repeatable)', collect)
    .option('--deny <rule>', 'deny matching calls, e.g. \'bash(rm -rf*)\'; deny wins (repeatable)', collect)
    // Claude Code's spellings (claude-flags.ts): accepted, and named in the README rather than in every --help.
    .addOption(new Option('--allowedTools <rules>').hideHelp().argParser(collect))
    .addOption(new Option('--disallowedTools <rules>').hideHelp().argParser(collect))
    .addOption(new Option('--allowed-tools <rules>').hideHelp().argParser(collect))
    .addOption(new Option('--disallowed-tools <rules>').hideHelp().argParser(collect))
    .addOption(new Option('--max-turns <n>').hideHelp().argParser(positiveInt))
    .option('--append-system-prompt <text>', 'a paragraph after dsh\'s system prompt (repeatable; as claude --append-system-prompt)', collect)
}

/** The path of a command below the program (`sessions show`), '' for the program. */
function pathOf(command: Command): string {
  const names: string[] = []
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name())
  return names.join(' ')
}

/** Builds the program; `setExit` receives each command's exit code. */
export function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command('dsh')
    .description('A coding agent with durable, session-scoped workspace context')
    .version(version, '-v, --version')
    .option('--dsh-home <dir>', 'dsh home directory (default: $DSH_HOME, else ~/.dsh)')
    .helpCommand(false)

  agentOptions(program.command('run').alias('exec').description('run one turn and print the final answer (also: dsh -p PROMPT, as claude -p)').argument('[prompt...]', 'what to ask the agent; "-" or none with piped stdin: read it from stdin'), resumeOption)
    .addOption(new Option('--output-format <format>', `text, json (one result object) or stream-json (one JSON object per line; schema: ${STREAM_JSON_SCHEMA_PATH})`).choices(['text', 'json', 'stream-json']).default('text'))
    .addOption(new Option('--input-format <format>', 'text, or stream-json: one user message per stdin line, one turn each (needs --output-format json or stream-json)').choices(['text', 'stream-json']).default('text'))
    .option('--include-partial', 'stream-json: also stream text and reasoning pieces as they arrive (stream/delta lines)')
    .option('--raw', 'print the answer with its terminal control sequences when stdout is not a terminal (default: removed)')
    .option('-c, --continue', 'continue the latest session started in this directory (as --resume ID)')
    .option('-o, --output-last-message <file>', 'also write the final answer to FILE (as codex exec -o; written after a failure too)')
    .action(async (words: string[], _options: RunOptions, command: Command) => {
      const { runCommand } = await import('./commands/run.ts')
      setExit(await runCommand(io, words, foldClaudeFlags(command.optsWithGlobals<RunOptions>(), DEFAULT_MAX_STEPS)))
    })

  agentOptions(program.command('chat').description('interactive session in the terminal (streams answers, shows tool calls, /help for commands)'), {
    flags: '-r, --resume [id]',
    help: 'continue a stored session (an id or a unique prefix; without one, pick from a list)',
  })
    .option('-c, --continue', 'continue the latest session started in this directory')
    .option('--yes', 'same as --permission-mode full-auto: nothing asks, shell commands stay sandboxed')
    .argument('[prompt...]', 'a first message to send once the session is open (as claude "…")')
    .action(async (words: string[], _options: ChatOptions, command: Command) => {
      const { chatCommand } = await import('./chat/chat-command.ts')
      setExit(await chatCommand(io, { ...foldClaudeFlags(command.optsWithGlobals<ChatOptions>(), DEFAULT_MAX_STEPS), ...(words.length === 0 ? {} : { prompt: words.join(' ') }) }))
    })

  // An editor picks sessions itself (session/load), so acp has no --resume.
  agentOptions(program.command('acp').description('serve the Agent Client Protocol on stdin/stdout, for editors (Zed, JetBrains, Neovim, Emacs)'), null).action(async (_options: AcpOptions, command: Command) => {
    const { acpCommand } = await import('./commands/acp.ts')
    setExit(await acpCommand(io, foldClaudeFlags(command.optsWithGlobals<AcpOptions>(), DEFAULT_MAX_STEPS)))
  })

  agentOptions(program.command('web').description('the agent in a browser: a local web host on 127.0.0.1 (prints the URL with its token)'), {
    flags: '--resume <id>',
    help: 'open this stored session of --cwd first (any other can be opened from the page)',
  })
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', port, 0)
    .option('--no-private-host', "keep the browser's cookie on 127.0.0.1 instead of this run's dsh-….localhost name (for browsers that do not resolve *.localhost; other local servers can then read the cookie)")
    .action(async (_options: WebOptions, command: Command) => {
      const { webCommand } = await import('./commands/web.ts')
      setExit(await webCommand(io, foldClaudeFlags(command.optsWithGlobals<WebOptions>(), DEFAULT_MAX_STEPS)))
    })

  const context = program
    .command('context')
    .description('the instruction baseline a new session would get, and every candidate examined')
    .helpCommand(false)
    .option('--cwd <dir>', 'working directory to inspect (default: the current directory)')
    .option('--config <file>', 'YAML config file (its workspaceContext and mcp sections apply)')
    .option('--mcp-config <file>', 'MCP servers in the .mcp.json shape, counted like those configured (repeatable)', collect)
    .option('--json', 'machine-readable output')
    .action(async (_options: unknown, command: Command) => {
      const { contextCommand } = await import('./commands/context.ts')
      setExit(await contextCommand(io, command.optsWithGlobals()))
    })
  context
    .command('why')
    .description('which instruction files apply to work on PATH, in order, and why')
    .argument('<path>', 'file or directory (relative to --cwd)')
    .option('--json', 'machine-readable output')
    .action(async (path: string, _options: unknown, command: Command) => {
      const { contextWhyCommand } = await import('./commands/context.ts')
      setExit(await contextWhyCommand(io, path, command.optsWithGlobals()))
    })

  program
    .command('docs')
    .description('maintainer documents of a session: list | show NAME | edit NAME | templates … | switches … | settings … | sweep | counters')
    .argument('[verb...]', 'what to do (default: list)')
    .option('--cwd <dir>', 'working directory whose newest session is meant')
    .option('--session <id>', 'the session (default: the newest session started in --cwd)')
    .option('--config <file>', 'YAML config file (its maintainerDocGuard section applies)')
    .option('--level <level>', 'edit: auto (default), session or workspace')
    .option('--from <file>', 'edit: take the new content from FILE instead of $EDITOR')
    .option('--yes', 'sweep: remove the previewed folders')
    .action(async (verb: string[], _options: DocsOptions, command: Command) => {
      const { docsCommand } = await import('./commands/docs.ts')
      setExit(await docsCommand(io, verb, command.optsWithGlobals<DocsOptions>()))
    })

  const sessions = program
    .command('sessions')
    .description('stored sessions')
    .helpCommand(false)
    .action(() => {
      throw usageError('sessions needs a subcommand: list or show (see dsh sessions --help)')
    })
  sessions
    .command('list')
    .description('list stored sessions, newest first')
    .option('--json', 'machine-readable output')
    .action(async (_options: unknown, command: Command) => {
      const { listSessions } = await import('./commands/sessions.ts')
      setExit(listSessions(io, command.optsWithGlobals()))
    })
  sessions
    .command('show')
    .description('show a stored session')
    .argument('<id>', 'session id')
    .option('--messages', 'print the model-visible history')
    .option('--config <file>', 'YAML config file (its model.prices give the cost line)')
    .action(async (id: string, _options: unknown, command: Command) => {
      const { showSession } = await import('./commands/sessions.ts')
      setExit(await showSession(io, id, command.optsWithGlobals()))
    })

  registerRootsCommands(program, io, setExit)
  registerRewindCommands(program, io, setExit)
  registerMcpCommands(program, io, setExit)
  registerSkillsCommands(program, io, setExit)

  const sandbox = program
    .command('sandbox')
    .description('the shell sandbox')
    .helpCommand(false)
    .action(() => {
      throw usageError('sandbox needs a subcommand: check (see dsh sandbox --help)')
    })
  sandbox
    .command('check')
    .description('what the shell sandbox allows for the working directory (roots, network, mode), with a self-test')
    .option('--cwd <dir>', 'working directory to check (default: the current directory)')
    .option('--config <file>', 'YAML config file (its permissions and sandbox sections apply)')
    .option('--add-dir <dir>', 'additional root, as with dsh run (repeatable)', collect)
    .option('--permission-mode <mode>', 'mode to check (default: the config file\'s, else full-auto as dsh run)')
    .action(async (_options: unknown, command: Command) => {
      const { sandboxCheckCommand } = await import('./commands/sandbox.ts')
      setExit(await sandboxCheckCommand(io, command.optsWithGlobals()))
    })

  const hooks = program
    .command('hooks')
    .description('user hooks (Claude Code format): list | trust')
    .helpCommand(false)
    .action(() => {
      throw usageError('hooks needs a subcommand: list or trust (see dsh hooks --help)')
    })
  hooks
    .command('list')
    .description('every configured hook with its source and trust state')
    .option('--cwd <dir>', 'project directory (default: the current directory)')
    .option('--config <file>', 'YAML config file (its hooks section is listed)')
    .option('--json', 'machine-readable output')
    .action(async (_options: unknown, command: Command) => {
      const { listHooks } = await import('./commands/hooks.ts')
      setExit(listHooks(io, command.optsWithGlobals()))
    })
  hooks
    .command('trust')
    .description("let the project's hook files (.dsh/settings.json, .claude/settings.json) run, as they are now")
    .option('--cwd <dir>', 'project directory (default: the current directory)')
    .action(async (_options: unknown, command: Command) => {
      const { trustHooks } = await import('./commands/hooks.ts')
      setExit(trustHooks(io, command.optsWithGlobals()))
    })

  program
    .command('compact')
    .description('compact a stored session at rest: its history becomes one checkpoint that keeps the last prompt verbatim')
    .argument('<id>', 'session id')
    .option('--model <spec>', `write the summary with this model: ${modelSpecHelp} (default: model.spec of --config, else a deterministic summary)`)
    .option('--base-url <url>', 'base URL of an OpenAI-compatible endpoint')
    .option('--config <file>', 'YAML config file (its model section is used)')
    .action(async (id: string, _options: unknown, command: Command) => {
      const { compactCommand } = await import('./commands/compact.ts')
      setExit(await compactCommand(io, id, command.optsWithGlobals()))
    })

  program
    .command('models')
    .description('list the models the endpoint serves (GET /models)')
    .option('--model <spec>', `whose endpoint: ${modelSpecHelp} (only the provider part is used; default: model.spec of --config, else ${defaultModelSpec})`)
    .option('--base-url <url>', 'base URL of an OpenAI-compatible endpoint')
    .option('--config <file>', 'YAML config file (its model section is used)')
    .action(async (_options: unknown, command: Command) => {
      const { modelsCommand } = await import('./commands/models.ts')
      setExit(await modelsCommand(io, command.optsWithGlobals()))
    })

  program
    .command('help')
    .description('show the help of dsh or of a command')
    .argument('[command...]', 'command, for example run or sessions show')
    .action((words: string[]) => {
      const target = words.reduce<Command | undefined>((parent, word) => parent?.commands.find((command) => command.name() === word), program)
      if (target === undefined) throw usageError(`unknown command "${words.join(' ')}" (dsh help lists the commands)`)
      io.stdout.write(target.helpInformation())
      // The same text --help prints (commander ends the after-help text with a newline).
      io.stdout.write(`${commandHelp[pathOf(target)] ?? ''}\n`)
    })

  configure(program, io)
  return program
}

/** Output, error capture and after-help text for the program and every subcommand. */
function configure(command: Command, io: CliIo): void {
  command
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // runCli prints the one line; commander's own two-line form is dropped here.
      outputError: () => undefined,
    })
    .exitOverride()
    .addHelpText('after', commandHelp[pathOf(command)] ?? '')
  for (const sub of command.commands) configure(sub, io)
}

/** The deepest command that the words of `argv` name (`dsh sessions show x` → `sessions show`). */
function commandNamedBy(program: Command, argv: readonly string[]): Command {
  let current = program
  for (const word of argv) {
    const sub = current.commands.find((command) => command.name() === word)
    if (sub !== undefined) current = sub
  }
  return current
}

/** Commander's message as one line: without its `error: ` prefix and final period, suggestions joined in. */
function commanderLine(error: CommanderError, command: Command, argv: readonly string[]): string {
  // `dsh sessions nope`: commander sees an extra argument of `sessions`; the person typed a command.
  const word = error.code === 'commander.excessArguments' && command.commands.length > 0 ? argv.slice(argv.lastIndexOf(command.name()) + 1).find((item) => !item.startsWith('-')) : undefined
  if (word !== undefined) return `unknown command '${pathOf(command)} ${word}'`
  return error.message
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\.$/, '')
}

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(io: CliIo, argv: readonly string[]): Promise<number> {
  let exitCode = 0
  const program = buildProgram(io, (code) => {
    exitCode = code
  })
  try {
    const names = new Set(program.commands.flatMap((command) => [command.name(), ...command.aliases()]))
    const interactive = io.stdinKind?.() === 'terminal' && Reflect.get(io.stdout, 'isTTY') === true
    await program.parseAsync([...interactiveAlias(printAlias(argv, names), names, interactive)], { from: 'user' })
    return exitCode
  } catch (error) {
    // Help and version exit through commander with code 0.
    if (error instanceof CommanderError && error.exitCode === 0) return 0
    // `dsh` without a command: commander printed the usage on stderr, which says it all.
    if (error instanceof CommanderError && error.code === 'commander.help') return 2
    // The terminal-safe line writer is loaded only when there is an error to print.
    const { errLine } = await import('./cli-io.ts')
    if (error instanceof CommanderError) {
      const command = commandNamedBy(program, argv)
      const path = pathOf(command)
      // Words typed as a question (`dsh "fix the test"`) are not a command: say how to ask.
      const ask = error.code === 'commander.unknownCommand' && path === '' ? '; to ask the agent: dsh run "…" (or dsh -p "…"), or dsh chat' : ''
      errLine(io, `dsh: ${commanderLine(error, command, argv)}${ask}; see dsh ${path === '' ? '' : `${path} `}--help`)
      return 2
    }
    if (error instanceof CliError) {
      errLine(io, `dsh: ${error.message}`)
      return error.exitCode
    }
    errLine(io, `dsh: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
}
