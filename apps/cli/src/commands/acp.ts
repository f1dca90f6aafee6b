/**
 * `dsh acp`: dsh as an Agent Client Protocol agent over stdio, for editors (Zed, JetBrains IDEs,
 * Neovim and Emacs plugins). It composes the host as `dsh run` does (same options; `--add-dir`
 * directories are granted to every session the editor opens; the MCP servers it sends run for
 * their session only; its permission modes are the editor's mode picker) and serves the ACP agent app until the editor closes stdin or a signal
 * arrives; then running prompts are cancelled, the SessionEnd hooks of every session still open
 * run, its MCP servers end, tool processes are ended and the host disposed. stdout carries only
 * JSON-RPC; diagnostics go to stderr.
 */
import { Readable, Writable } from 'node:stream'
import { AcpSessionRegistry, askThroughClient, createAcpAgentApp, serveStdio } from '@dsh/acp'
import { absoluteDirs, refusedDirectory } from '../add-dirs.ts'
import { prepareAgentSetup, type AgentSetupOptions } from '../agent-setup.ts'
import { CliError } from '../cli-error.ts'
import type { CliIo } from '../cli-io.ts'
import { guardShutdown } from '../shutdown.ts'
import { version } from '../version.ts'
import { frontEndCommands } from '../command-expansion.ts'
import { acpMcpServers } from '../acp-mcp.ts'
import { modeChoices } from '../mode-choices.ts'
import { IDLE_MESSAGE, idleNoticeMs } from '../idle-notice.ts'

/** Options of `dsh acp`. */
export interface AcpOptions extends AgentSetupOptions {
  readonly addDir?: readonly string[]
}

/** Serves ACP on the process's stdin and stdout until the editor hangs up; returns the exit code. */
export async function acpCommand(io: CliIo, options: AcpOptions): Promise<number> {
  const input = io.stdin
  const output = io.stdout
  if (!(input instanceof Readable) || !(output instanceof Writable)) throw new CliError('dsh acp talks to an editor over its standard input and output')
  const registry = new AcpSessionRegistry()
  const setup = await prepareAgentSetup(io, options, { askPermission: askThroughClient(registry) })
  const app = createAcpAgentApp({
    host: setup.host,
    registry,
    // A loaded session keeps the endpoint it ran with, as `dsh run --resume` does.
    startOptions: (cwd, sessionId) => ({ ...setup.startOptions(), cwd, ...(sessionId === undefined ? {} : { provider: setup.providerFor(sessionId) }) }),
    checkDirectories: (primary, dirs) => refusedDirectory(setup, primary, dirs),
    extraDirectories: absoluteDirs(io, options.addDir),
    agentInfo: { name: 'dsh', title: 'dsh', version },
    log: setup.log,
    commands: frontEndCommands({ dshHome: setup.dshHome, log: setup.log, mcp: setup.mcp, multiRoot: setup.host.ctx.get('workspaceRoots') !== undefined }),
    mcp: acpMcpServers(setup, io.env),
    modes: modeChoices(setup),
    sessionEnd: (session, reason) => setup.host.ctx.get('hooks')?.sessionEnd(session, reason) ?? Promise.resolve(),
    // Notification hooks hear idle_prompt when a session waited after a prompt, as in the chat.
    idle: { afterMs: idleNoticeMs(io.env), notice: (session) => setup.host.ctx.get('hooks')?.notify(session, 'idle_prompt', IDLE_MESSAGE) },
  })
  const server = serveStdio(app, { input, output })
  const shutdown = guardShutdown({ signals: ['SIGTERM', 'SIGINT', 'SIGHUP'], processes: setup.processes, onSignal: () => server.close() })
  try {
    await server.closed
  } finally {
    // Every session still open ends with the connection: its prompt winds down, then SessionEnd runs.
    const hooks = setup.host.ctx.get('hooks')
    for (const session of await registry.closeAll()) await hooks?.sessionEnd(session, 'other')
    await setup.host.dispose()
    shutdown[Symbol.dispose]()
  }
  return shutdown.exitCode ?? 0
}
