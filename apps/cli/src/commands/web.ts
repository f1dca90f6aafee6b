/**
 * `dsh web`: composes the host with the web host's approval bridge, starts the local web host
 * (`@dsh/web`) on 127.0.0.1 and prints its URL alone on one stdout line. It runs until SIGINT,
 * SIGTERM or SIGHUP, which stop the live sessions (running turns close themselves as cancelled) and
 * exit with 130, 143 or 129 through the shutdown path.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { userHome } from '@dsh/runtime'
import { contextReport } from '@dsh/tui'
import { createApprovalBridge, startWebHost } from '@dsh/web'
import { usageError } from '../cli-error.ts'
import type { CliIo } from '../cli-io.ts'
import { prepareAgentSetup, type AgentSetupOptions } from '../agent-setup.ts'
import { checkAddDirs, grantAddDirs } from '../add-dirs.ts'
import { guardShutdown } from '../shutdown.ts'
import { workspaceReport } from '../chat/workspace-report.ts'
import { frontEndCommands } from '../command-expansion.ts'
import { modeChoices } from '../mode-choices.ts'
import { mcpRows } from '../mcp-rows.ts'
import { IDLE_MESSAGE, idleNoticeMs } from '../idle-notice.ts'

/** Options of `dsh web`. */
export interface WebOptions extends AgentSetupOptions {
  readonly port?: number
  readonly resume?: string
  readonly addDir?: readonly string[]
  /** commander's `--no-private-host` (true unless given). */
  readonly privateHost?: boolean
}

/**
 * Where the built page is: next to the bundle (`dist/web/`, this code runs from `dist/chunks/` or
 * `dist/`), or the build output when run from the sources.
 */
function assetsDir(): string {
  const candidates = ['../web/', './web/', '../../dist/web/'].map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
  return candidates.find((dir) => existsSync(`${dir}index.html`)) ?? candidates[0] ?? ''
}

/** Runs the command; resolves with the exit code once a signal ended it. */
export async function webCommand(io: CliIo, options: WebOptions): Promise<number> {
  if (options.resume === undefined) await checkAddDirs(io, options, options.addDir)
  const approvals = createApprovalBridge()
  const setup = await prepareAgentSetup(io, options, { askPermission: approvals.askPermission })
  let resolveStopped: (() => void) | undefined
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve))
  const shutdown = guardShutdown({ signals: ['SIGINT', 'SIGTERM', 'SIGHUP'], processes: setup.processes, onSignal: () => resolveStopped?.() })
  try {
    const web = await startWebHost({
      port: options.port ?? 0,
      resume: options.resume,
      assetsDir: assetsDir(),
      privateHost: options.privateHost ?? true,
      env: {
        host: setup.host,
        cwd: setup.cwd,
        startOptions: setup.startOptions,
        docs: setup.docs,
        approvals,
        inspectWorkspace: (cwd, signal) => workspaceReport({ cwd, dshHome: setup.dshHome, config: setup.config, fs: setup.host.ctx.get('fs'), signal }),
        sessionContext: contextReport,
        prepareAgent: (agent) => grantAddDirs(io, setup, agent, options.addDir),
        homes: { home: userHome(), dshHome: setup.dshHome },
        contextWindow: setup.provider.contextWindow,
        prices: setup.config.model?.prices,
        log: setup.log,
        modes: modeChoices(setup),
        commands: frontEndCommands({ dshHome: setup.dshHome, log: setup.log, mcp: setup.mcp, multiRoot: setup.host.ctx.get('workspaceRoots') !== undefined }),
        ...(setup.mcp === undefined ? {} : { mcpServers: () => mcpRows(setup.mcp) }),
        sessionEnd: (agent, reason) => setup.host.ctx.get('hooks')?.sessionEnd(agent.handle, reason) ?? Promise.resolve(),
        // Notification hooks hear idle_prompt when a session waited after a turn, as in the chat.
        idle: { afterMs: idleNoticeMs(io.env), notice: (agent) => setup.host.ctx.get('hooks')?.notify(agent.handle, 'idle_prompt', IDLE_MESSAGE) },
      },
    }).catch((error: unknown) => {
      if (error instanceof Error && error.name === 'ResumeRefused') throw usageError(`--resume: ${error.message}`)
      throw error
    })
    io.stdout.write(`${web.url}\n`)
    await stopped
    await web.close()
    return shutdown.exitCode ?? 0
  } finally {
    await setup.host.dispose()
    shutdown[Symbol.dispose]()
  }
}
