/**
 * `dsh chat`: an interactive session in the terminal. Decides the terminal mode (colour and
 * readline editing only on a terminal without `NO_COLOR`; plain lines for pipes), composes the
 * host with the terminal's permission prompt, starts (or resumes) the agent, prints
 * `session: <id>` on stderr and runs the loop until the chat ends. SIGTERM, SIGHUP and a second
 * Ctrl-C end it through the shutdown path (shutdown.ts): exit 143, 129 or 130.
 */
import { errLine, type CliIo } from '../cli-io.ts'
import { prepareAgentSetup, type AgentSetup, type AgentSetupOptions } from '../agent-setup.ts'
import { absoluteDirs, checkAddDirs, grantAddDirs, regrantAddDirs } from '../add-dirs.ts'
import { createStyles, isTty, terminalMode } from './ansi.ts'
import { LineInput } from './line-input.ts'
import { guardCodeRunners, terminalAskPermission, type PermissionTerminal } from './permission.ts'
import { ChatRenderer } from './renderer.ts'
import { ChatLoop } from './session-loop.ts'
import { guardShutdown } from '../shutdown.ts'

/** Options of `dsh chat`. */
export interface ChatOptions extends AgentSetupOptions {
  /** Continue a stored session. */
  readonly resume?: string
  /** Approve every `bash` and `run_code` call (and every other ask) without a question. */
  readonly yes?: boolean
  /** Additional workspace roots for this session only (`--add-dir`). */
  readonly addDir?: readonly string[]
}

/** Runs the chat; returns the exit code. `input` is the terminal (stdin unless a test embeds it). */
export async function chatCommand(io: CliIo, options: ChatOptions, input: NodeJS.ReadableStream = process.stdin): Promise<number> {
  if (options.resume === undefined) await checkAddDirs(io, options, options.addDir)
  const mode = terminalMode(io, input)
  const renderer = new ChatRenderer({ out: io.stdout, err: io.stderr, styles: createStyles(mode.color), showReasoning: isTty(io.stdout) })
  let terminal: PermissionTerminal | undefined
  const setup: AgentSetup = await prepareAgentSetup(io, options, { askPermission: terminalAskPermission(() => terminal, options.yes === true) })
  let lineInput: LineInput | undefined
  let loop: ChatLoop | undefined
  // SIGINT stays with the line input: the first Ctrl-C cancels a step, the second triggers this path.
  const shutdown = guardShutdown({ signals: ['SIGTERM', 'SIGHUP'], processes: setup.processes, onSignal: () => loop?.exit() })
  try {
    if (options.yes !== true) guardCodeRunners(setup.host.ctx)
    const agent = await setup.host.startAgent(setup.startOptions(options.resume))
    errLine(io, `session: ${agent.session.id}`)
    await grantAddDirs(io, setup, agent, options.addDir)
    lineInput = new LineInput({ input, output: io.stdout, editing: mode.editing, showPrompts: mode.interactive, onInterrupt: () => loop?.interrupt() })
    terminal = { input: lineInput, renderer }
    const addDirs = absoluteDirs(io, options.addDir)
    loop = new ChatLoop({ io, input: lineInput, renderer, setup, agent, interactive: mode.interactive, onInterruptExit: () => shutdown.trigger('SIGINT'), onSwitch: (next) => regrantAddDirs(setup, next, addDirs) })
    // A signal that came while the session was starting ends the chat before it reads a line.
    if (shutdown.signal !== undefined) loop.exit()
    if (mode.interactive) renderer.notice('dsh chat: type a message, /help for commands, Ctrl-D to exit')
    const code = await loop.run()
    return shutdown.exitCode ?? code
  } finally {
    lineInput?.close()
    await setup.host.dispose()
    shutdown[Symbol.dispose]()
  }
}
