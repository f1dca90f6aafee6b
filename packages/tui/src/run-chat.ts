/**
 * `dsh chat` behind its option parsing: picks the front end (full screen, or the plain line mode
 * for pipes and dumb terminals), registers the slash commands, opens the starting session (a new
 * one, `--resume ID`, `--continue`, or the picker), sends the first message when one was given, runs the chat and, when a person was at the
 * terminal, prints how to come back: `resume with: dsh chat --resume <id>`.
 */
import type { Agent } from '@dsh/runtime'
import type { ApprovalBroker } from './approvals/approval-broker.ts'
import { ChatController } from './chat-controller.ts'
import type { ChatEnvironment } from './chat-environment.ts'
import { LineInput } from './plain/line-input.ts'
import { plainAsker } from './plain/plain-asker.ts'
import { plainInterrupt, runPlainChat, type PlainChatOptions } from './plain/plain-chat.ts'
import { PlainView } from './plain/plain-view.ts'
import { runScreenChat } from './screen/screen-chat.ts'
import { latestSessionIn, resumableRows, type SessionRow } from './sessions/session-rows.ts'
import { registerChatCommands } from './slash/chat-commands.ts'
import { SlashRegistry, type SlashCommandSpec, type SlashFallback } from './slash/slash-registry.ts'
import { isTty, terminalMode } from './terminal-mode.ts'
import { createTheme } from './theme.ts'

/** Which session the chat starts in. */
export type StartChoice = { readonly kind: 'new' } | { readonly kind: 'resume'; readonly id: string } | { readonly kind: 'continue' } | { readonly kind: 'pick' }

/** Inputs of one chat. */
export interface ChatRunOptions {
  readonly env: ChatEnvironment
  /** The broker whose `askPermission` the host was composed with. */
  readonly broker: ApprovalBroker
  readonly start: StartChoice
  /** Aborting it ends the chat (the product's shutdown path); the product picks the exit code. */
  readonly stop?: AbortSignal
  /** Runs on the starting agent before the chat uses it (the CLI grants `--add-dir` roots); may throw to end the chat. */
  readonly prepareAgent?: (agent: Agent) => Promise<void>
  /** Commands the product adds (they may replace built-in ones). */
  readonly commands?: readonly SlashCommandSpec[]
  /**
   * Called once, before the chat starts, with a way to add commands while it runs (the prompts of
   * MCP servers that connect later); `register` returns the command's remover.
   */
  readonly liveCommands?: (register: (spec: SlashCommandSpec) => () => void) => void
  /** Runs for a `/name` no command has (skills the session discovered while it ran); see {@link SlashFallback}. */
  readonly fallbackCommand?: SlashFallback
  /** A first message, sent as if typed once the session is open (`dsh chat "…"`, as `claude "…"`). */
  readonly initialPrompt?: string
  readonly stdin: NodeJS.ReadableStream
  readonly stdout: NodeJS.WritableStream
  readonly stderr: NodeJS.WritableStream
}

/** The resume hint printed when a person leaves the chat. */
export const resumeHint = (id: string): string => `resume with: dsh chat --resume ${id}`

async function openAgent(options: ChatRunOptions, pick: (rows: readonly SessionRow[]) => Promise<string | undefined>, notice: (line: string) => void): Promise<Agent | undefined> {
  const agent = await startingAgent(options, pick, notice)
  if (agent === undefined || options.prepareAgent === undefined) return agent
  try {
    await options.prepareAgent(agent)
  } catch (error) {
    // The chat cannot start as asked: close the session again and report the failure.
    agent.dispose()
    throw error
  }
  return agent
}

async function startingAgent(options: ChatRunOptions, pick: (rows: readonly SessionRow[]) => Promise<string | undefined>, notice: (line: string) => void): Promise<Agent | undefined> {
  const { env, start } = options
  const startAgent = (resume?: string): Promise<Agent> => env.host.startAgent(env.startOptions(resume))
  switch (start.kind) {
    case 'new':
      return startAgent()
    case 'resume':
      return startAgent(start.id)
    case 'continue': {
      const latest = latestSessionIn(env.host.sessions, env.cwd)
      if (latest === undefined) notice(`no earlier session in ${env.cwd}; starting a new one`)
      return startAgent(latest?.id)
    }
    case 'pick': {
      const rows = resumableRows(env.host.sessions)
      if (rows.length === 0) {
        notice('no earlier session to resume; starting a new one')
        return startAgent()
      }
      const id = await pick(rows)
      return id === undefined ? undefined : startAgent(id)
    }
    default: {
      const unreachable: never = start
      throw new Error(`unknown start ${JSON.stringify(unreachable)}`)
    }
  }
}

/** Runs the chat; returns the exit code. */
export async function runChat(options: ChatRunOptions): Promise<number> {
  const { env } = options
  const mode = terminalMode(options.stdin, options.stdout, env.env)
  const registry = new SlashRegistry()
  registerChatCommands(registry)
  for (const command of options.commands ?? []) registry.register(command)
  options.liveCommands?.((spec) => registry.register(spec))
  if (options.fallbackCommand !== undefined) registry.setFallback(options.fallbackCommand)
  const sessionLine = (id: string): void => void options.stderr.write(`session: ${id}\n`)
  if (mode.kind === 'screen') {
    const theme = createTheme({ color: mode.color, attributes: true })
    const result = await runScreenChat({
      env,
      registry,
      theme,
      attachAsker: (asker) => options.broker.attach(asker),
      // On the terminal the screen draws on, a line written beside it would be drawn over; the
      // transcript names the session instead. Redirected, stderr keeps the `session:` lines.
      ...(isTty(options.stderr) ? {} : { onSession: sessionLine }),
      openAgent: (pick, notice) => openAgent(options, pick, notice),
      ...(options.stop === undefined ? {} : { stop: options.stop }),
      ...(options.initialPrompt === undefined ? {} : { initialPrompt: options.initialPrompt }),
    })
    if (result.sessionId !== undefined) options.stdout.write(`${resumeHint(result.sessionId)}\n`)
    return result.exitCode
  }
  return runPlain(options, registry, mode.interactive, sessionLine)
}

async function runPlain(options: ChatRunOptions, registry: SlashRegistry, interactive: boolean, sessionLine: (id: string) => void): Promise<number> {
  const { env } = options
  const armed: { at?: number } = {}
  let plain: PlainChatOptions | undefined
  const input = new LineInput({ input: options.stdin, output: options.stdout, showPrompts: interactive, onInterrupt: () => (plain === undefined ? undefined : plainInterrupt(plain, armed)) })
  // Redirected output cannot take a void partial answer back, so each attempt is held until it ends.
  const view = new PlainView({ out: options.stdout, err: options.stderr, showReasoning: interactive, holdAttempts: !isTty(options.stdout), readLine: (prompt) => input.ask(prompt, new AbortController().signal) })
  try {
    const agent = await openAgent(options, (rows) => view.pickSession(rows), (line) => options.stderr.write(`${line}\n`))
    if (agent === undefined) return 0
    sessionLine(agent.session.id)
    const controller = new ChatController({ env, view, registry, agent, onSession: sessionLine })
    const detach = options.broker.attach(plainAsker(input, view, { showChoices: interactive }))
    plain = { controller, input, view, interactive, out: options.stdout }
    const onStop = (): void => {
      controller.exit()
      input.close()
    }
    if (options.stop?.aborted === true) onStop()
    options.stop?.addEventListener('abort', onStop, { once: true })
    if (interactive) view.lines([`dsh ${env.version} · ${env.model.label} · ${env.cwd} · ${env.approvalMode}`, '/help for commands, Ctrl-D to exit'])
    try {
      if (options.initialPrompt !== undefined) await controller.submit(options.initialPrompt)
      await runPlainChat(plain, armed)
    } finally {
      detach()
      options.stop?.removeEventListener('abort', onStop)
    }
    await env.sessionEnd?.(controller.agent, 'prompt_input_exit')
    if (interactive) view.lines([resumeHint(controller.agent.session.id)])
    if (controller.exitCode !== 0) return controller.exitCode
    return controller.failed && !interactive ? 1 : 0
  } finally {
    input.close()
  }
}
