/**
 * `dsh chat`: parses the chat's own options (`--resume [ID]`, `--continue`, `--yes`, `--add-dir`),
 * composes the host with the chat's approval broker, describes the surroundings the front end needs
 * (model and how to switch it, prices, additional roots, the workspace inspection of `/context`,
 * `/workspace-folders`, `/docs`) and hands over to `@dsh/tui`.
 * SIGTERM and SIGHUP end it through the shutdown path (`shutdown.ts`: exit 143 or 129); a second
 * Ctrl-C at an idle prompt exits 130, Ctrl-D or `/exit` 0.
 */
import { resolve } from 'node:path'
import { approvalLabel, chatPermissions } from './chat-permissions.ts'
import { createApprovalBroker, createDiagnosticsRelay, latestSessionIn, runChat, terminalMode, type ChatEnvironment, type DiagnosticsRelay, type ModelChoice, type StartChoice } from '@dsh/tui'
import type { Agent } from '@dsh/runtime'
import { usageError } from '../cli-error.ts'
import { storeFor } from '../session-store-for.ts'
import { storedEndpoint } from '../resume-endpoint.ts'
import { cwdFrom } from '../global-options.ts'
import { errLine, type CliIo } from '../cli-io.ts'
import { prepareAgentSetup, type AgentSetup, type AgentSetupOptions } from '../agent-setup.ts'
import { absoluteDirs, checkAddDirs, grantAddDirs, regrantAddDirs } from '../add-dirs.ts'
import { parseModelSpec, providerFromConfig } from '../model-spec.ts'
import { docsCommand } from './docs-command.ts'
import { skillCommands } from './skill-commands.ts'
import { hooksChatCommand } from './hooks-chat-command.ts'
import { userShell } from './user-shell.ts'
import { IDLE_MESSAGE, idleNoticeMs } from '../idle-notice.ts'
import { liveSkillRoots, prospectiveSkillRoots } from '../skill-roots.ts'
import { mcpPromptCommands } from './mcp-prompt-commands.ts'
import { rewindChatCommand } from './rewind-chat-command.ts'
import { addDirCommand, workspaceFoldersCommand } from './workspace-folders-command.ts'
import { guardShutdown } from '../shutdown.ts'
import { version } from '../version.ts'
import { workspaceReport } from './workspace-report.ts'
import { mcpRows } from '../mcp-rows.ts'

/** Options of `dsh chat`. */
export interface ChatOptions extends AgentSetupOptions {
  /** Continue a stored session: an id (or unique prefix), or `true` to pick one. */
  readonly resume?: string | true
  /** Continue the latest session of this directory. */
  readonly continue?: boolean
  /** `--permission-mode full-auto`: nothing asks (shell commands stay sandboxed). */
  readonly yes?: boolean
  /** Additional workspace roots for this session only (`--add-dir`). */
  readonly addDir?: readonly string[]
  /** A first message (the command's words), sent once the session is open. */
  readonly prompt?: string
}

/** The process streams the chat runs on (the process's own unless a test embeds it). */
export interface ChatStreams {
  readonly stdin: NodeJS.ReadableStream
}

function startChoice(options: ChatOptions, interactive: boolean): StartChoice {
  if (options.continue === true && options.resume !== undefined) throw usageError('--continue and --resume cannot be used together')
  if (options.continue === true) return { kind: 'continue' }
  if (options.resume === true) {
    if (!interactive) throw usageError('--resume without an ID opens a picker, which needs a terminal; pass the session ID')
    return { kind: 'pick' }
  }
  return options.resume === undefined ? { kind: 'new' } : { kind: 'resume', id: options.resume }
}

function modelChoice(setup: AgentSetup, label: string, provider = setup.provider): ModelChoice {
  const prices = setup.config.model?.prices
  return { label, provider, ...(prices === undefined ? {} : { prices }) }
}

function environment(io: CliIo, setup: AgentSetup, options: ChatOptions, label: string, diagnostics: DiagnosticsRelay): ChatEnvironment {
  return {
    host: setup.host,
    dshHome: setup.dshHome,
    cwd: setup.cwd,
    version,
    model: modelChoice(setup, label),
    startOptions: setup.startOptions,
    switchModel: (text) => modelChoice(setup, text, providerFromConfig({ spec: parseModelSpec(text), cwd: io.cwd, env: io.env, baseUrl: options.baseUrl, model: setup.config.model, flags: options, live: setup.thinking.read, log: setup.log })),
    // A stored session continues with its own endpoint (the start-up model when it ran with that one).
    modelForResume: (id) => {
      // Nothing stored (a scripted session, no model call yet): the chat's current model goes on.
      if (storedEndpoint(storeFor(io, options.dshHome), id) === undefined) return undefined
      const provider = setup.providerFor(id)
      return provider === setup.provider ? modelChoice(setup, label) : modelChoice(setup, `${provider.id}:${provider.model}`, provider)
    },
    modelSummaries: setup.spec.kind !== 'scripted',
    ...(setup.onRequest === undefined ? {} : { onRequest: setup.onRequest }),
    inspectWorkspace: (cwd, signal) => workspaceReport({ cwd, dshHome: setup.dshHome, config: setup.config, fs: setup.host.ctx.get('fs'), signal }),
    additionalRoots: (agent) => availableRoots(setup, agent),
    thinkingModes: () => thinkingNow(setup, options),
    // The chat's --add-dir directories go with it to every session it switches to.
    prepareSwitch: (agent) => regrantAddDirs(setup, agent, absoluteDirs(io, options.addDir)),
    // SessionEnd hooks (none without the hooks plugin); the service never rejects.
    sessionEnd: (agent, reason) => setup.host.ctx.get('hooks')?.sessionEnd(agent.handle, reason) ?? Promise.resolve(),
    // Notification hooks with notification_type idle_prompt, as Claude Code sends after a minute of waiting.
    idle: { afterMs: idleNoticeMs(io.env), notice: (agent) => setup.host.ctx.get('hooks')?.notify(agent.handle, 'idle_prompt', IDLE_MESSAGE) },
    // `!command` lines run as the person's own command (user-shell.ts).
    shell: userShell(io.env),
    approvalMode: approvalLabel(setup),
    permissions: chatPermissions(setup),
    ...(setup.mcp === undefined ? {} : { mcp: { servers: () => mcpRows(setup.mcp) } }),
    env: io.env,
    log: setup.log,
    diagnostics,
  }
}

/** What the next request's thinking fields are: the flags win over the live settings. */
function thinkingNow(setup: AgentSetup, options: ChatOptions): { thinking?: string | undefined; reasoningEffort?: string | undefined } {
  const live = setup.thinking.read()
  return { thinking: options.thinking === undefined ? live.thinking : options.thinking ? 'enabled' : 'disabled', reasoningEffort: options.effort ?? live.reasoningEffort }
}

/** The session's available additional roots (none without the multi-root plugin). */
function availableRoots(setup: AgentSetup, agent: Agent): string[] {
  const roots = setup.host.ctx.get('workspaceRoots')?.session(agent.session).list().roots ?? []
  return roots.filter((root) => root.state === 'available').map((root) => root.path)
}

/** The roots the chat's `/name` commands see: the starting session's (listed at start), then its session's now. */
async function chatSkillRoots(io: CliIo, setup: AgentSetup, options: ChatOptions) {
  const service = setup.host.ctx.get('workspaceRoots')
  const additionalRoots = await prospectiveSkillRoots({ dshHome: setup.dshHome, cwd: setup.cwd, granted: absoluteDirs(io, options.addDir), enabled: service !== undefined })
  return { additionalRoots, liveRoots: (agent: Agent) => liveSkillRoots(service, agent.session) }
}

/** Runs the chat; returns the exit code. */
export async function chatCommand(io: CliIo, options: ChatOptions, streams: ChatStreams = { stdin: process.stdin }): Promise<number> {
  const start = startChoice(options, terminalMode(streams.stdin, io.stdout, io.env).kind === 'screen')
  // A new session's --add-dir directories are checked before anything is created (bad input first).
  if (start.kind === 'new') await checkAddDirs(io, options, options.addDir)
  if (options.yes === true && options.permissionMode !== undefined && options.permissionMode !== 'full-auto') {
    throw usageError(`--yes means --permission-mode full-auto; it cannot be combined with --permission-mode ${options.permissionMode}`)
  }
  // Questions go to whoever is attached; the policy decides what is asked (--yes: full-auto, nothing).
  let sessionCwd: string | undefined
  const broker = createApprovalBroker({ autoApprove: false, cwd: () => sessionCwd })
  // The host's diagnostics go to stderr, or into the transcript while the full-screen UI draws.
  const diagnostics = createDiagnosticsRelay((line) => errLine(io, line))
  // The chat's default mode is ask.
  // --continue keeps the endpoint of the session it continues, as --resume ID does.
  const continued = start.kind === 'continue' ? latestSessionIn(storeFor(io, options.dshHome), cwdFrom(io, options.cwd))?.id : undefined
  const setup = await prepareAgentSetup(io, continued === undefined ? options : { ...options, resume: continued }, { askPermission: broker.askPermission, log: diagnostics.log, defaultMode: 'ask', ...(options.yes === true ? { mode: 'full-auto' } : {}) })
  sessionCwd = setup.cwd
  const stop = new AbortController()
  // Ctrl-C is the chat's own key (a keystroke in the screen mode, SIGINT in the plain mode).
  const shutdown = guardShutdown({ signals: ['SIGTERM', 'SIGHUP'], processes: setup.processes, onSignal: () => stop.abort() })
  try {
    const label = options.model ?? setup.config.model?.spec ?? `${setup.spec.kind}:${setup.spec.kind === 'scripted' ? resolve(io.cwd, setup.spec.file) : setup.spec.model}`
    const skills = await skillCommands({ cwd: setup.cwd, dshHome: setup.dshHome, env: io.env, productCommands: ['workspace-folders', 'add-dir', 'docs', 'rewind', 'hooks'], ...(await chatSkillRoots(io, setup, options)) })
    const code = await runChat({
      env: environment(io, setup, options, label, diagnostics),
      broker,
      start,
      stop: stop.signal,
      prepareAgent: (agent) => grantAddDirs(io, setup, agent, options.addDir),
      commands: [workspaceFoldersCommand(setup.host), addDirCommand(setup.host), docsCommand(setup.docs), rewindChatCommand(setup.dshHome), hooksChatCommand({ host: setup.host, cwd: setup.cwd, dshHome: setup.dshHome }), ...skills.commands],
      fallbackCommand: skills.fallback,
      ...(options.prompt === undefined || options.prompt.trim() === '' ? {} : { initialPrompt: options.prompt }),
      ...(setup.mcp === undefined ? {} : { liveCommands: mcpPromptCommands(setup.mcp) }),
      stdin: streams.stdin,
      stdout: io.stdout,
      stderr: io.stderr,
    })
    return shutdown.exitCode ?? code
  } finally {
    await setup.host.dispose()
    shutdown[Symbol.dispose]()
  }
}
