/**
 * Composition of the CLI product: the local filesystem, the core tools and the plugins on one host,
 * and the options every agent on it runs with (step limit, request log, automatic compaction with
 * the live `agent.autoCompactShare` setting). Top-level agents and subagents get the same ones.
 * What bash commands leave running in the background lives until the host is disposed. Every tool
 * call is decided by the permission policy (permission-setup.ts), and `bash` and `run_code` launch
 * their processes through the shell sandbox.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLocalFileSystem } from '@dsh/fs-local'
import type { ChatRequestBody, ModelProvider, ProcessLauncher, ToolDefinition } from '@dsh/contracts'
import { createCheckpointsPlugin } from '@dsh/checkpoints'
import { createRunCodeTool } from '@dsh/code-mode'
import { createMultiRootWorkspacePlugin } from '@dsh/multi-root-workspace'
import { createHost, proxySettings, type AskPermission, type Host, type StartAgentOptions } from '@dsh/runtime'
import { SettingsPlugin } from '@dsh/settings'
import { createSkillsPlugin } from '@dsh/skills'
import { todoPlugin } from '@dsh/todo'
import { createChildStarter, createSubagentTool } from '@dsh/subagent'
import { coreTools, createFileVersionsPlugin, createWebFetchTool, FileVersions, type ToolProcesses } from '@dsh/tools'
import { version } from './version.ts'
import { createWorkspaceContextPlugin } from '@dsh/workspace-context'
import { createMaintainerDocGuard, judgeModelOf, operatorServiceFor, type OperatorService } from '@dsh/maintainer-doc-guard'
import type { ConfigFile } from './config-file.ts'
import { hooksPlugin } from './hooks-setup.ts'
import { instructionConfig } from './instruction-config.ts'
import { multiRootConfig, multiRootEnabled } from './multi-root-config.ts'
import { registerAgentSettings } from './live-settings.ts'
import type { ComposePermissions } from './permission-options.ts'
import { exemptingWrites, installPermissions, sandboxSetup, secretLocations, type InstalledPermissions, type SandboxSetup } from './permission-setup.ts'
import { startMcpServers } from './mcp-setup.ts'
import type { McpHub, ServerEntry } from '@dsh/mcp'

/** How every agent of the composition runs. */
export interface AgentRunSettings {
  /** Step limit per turn (`--max-steps`; the runtime default when absent). */
  readonly maxSteps?: number | undefined
  /** Receives every request body before it is sent (`--request-log`). */
  readonly onRequest?: ((body: ChatRequestBody) => void) | undefined
  /** Base share of the context window that triggers automatic compaction (live-overridable). */
  readonly autoCompactShare: number
  /** Ask the model for compaction summaries (else the deterministic one). */
  readonly autoCompactUseModel: boolean
  /** Send the contents of `@`-mentioned files with a prompt (`agent.attachMentions`). */
  readonly attachMentions?: boolean | undefined
}

/** The `startAgent` options shared by top-level agents and subagents. */
export type AgentRunOptions = Pick<StartAgentOptions, 'maxSteps' | 'onRequest' | 'autoCompact' | 'attachMentions'>

/** A composed host and the options its agents start with. */
export interface Composition {
  /** The host (dispose it when done). */
  readonly host: Host
  /** Spread into every top-level `startAgent`; subagents already get them. */
  readonly agentOptions: AgentRunOptions
  /** The maintainer-documents operator service; absent while the guard is off (the default). */
  readonly docs?: OperatorService
  /** The permission mode in force and the shell sandbox's launcher. */
  readonly sandbox: SandboxSetup
  /** The guard's controls and the configured rules with their sources. */
  readonly permissions: InstalledPermissions
  /** The MCP servers (absent when none is configured). */
  readonly mcp?: McpHub
}

/** Inputs of a composition. */
export interface ComposeOptions {
  /** Resolved home. */
  readonly dshHome: string
  /** The config file in use (absolute), protected like `$DSH_HOME`: its rules and mode apply to later runs. */
  readonly configPath?: string
  /** Session working directory (canonical). */
  readonly cwd: string
  /** Validated config file (empty object when none). */
  readonly config: ConfigFile
  /** Diagnostics sink. */
  readonly log: (line: string) => void
  /** The front end's asker for `ask` verdicts; absent for front ends that cannot ask (`dsh run`). */
  readonly askPermission?: AskPermission
  /**
   * Mode and rules from the command line and the front end's default mode. Absent: default `ask`
   * and no command-line rules (interactive front ends: ACP and web pass `{ defaultMode: 'ask', … }`).
   */
  readonly permissions?: ComposePermissions
  /** The model provider (subagents share it). */
  readonly provider: ModelProvider
  /** How every agent runs, subagents included. */
  readonly agents: AgentRunSettings
  /** Tracks what bash commands leave running; ended (SIGTERM, grace, SIGKILL) when the host is disposed. */
  readonly processes: ToolProcesses
  /** dsh's environment: hooks run with it, minus the provider keys (absent: an empty one). */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** `--mcp-config` files (absolute) and the environment their `${VAR}`s and the servers' minimal environment come from. */
  readonly mcp?: { readonly configFiles?: readonly string[]; readonly env: Readonly<Record<string, string | undefined>>; readonly extraEntries?: readonly ServerEntry[] }
}

/** Default delegation depth of subagents. */
export const defaultSubagentDepth = 2

/** Builds the host with every product plugin mounted, and the options its agents run with. */
export async function composeHost(options: ComposeOptions): Promise<Composition> {
  const secrets = secretLocations(options.dshHome)
  const permissions = options.permissions ?? { defaultMode: 'ask' }
  const frontEndAsk = options.askPermission
  const setupOptions = { config: options.config, permissions, interactive: frontEndAsk !== undefined, log: options.log, dshHome: options.dshHome, configPath: options.configPath }
  const sandbox = sandboxSetup(setupOptions)
  // What dsh itself writes (write, edit, operator saves) is not reverted as a command's plant.
  const fs = exemptingWrites(createLocalFileSystem({ writableRoots: [options.cwd, tmpdir()], unlisted: secrets }), (path) => sandbox.launcher.exempt(path))
  // grep and glob walk with ripgrep, not through fs listings: they get the same list to leave out.
  const isSecretPath = (path: string): boolean => secrets.some((secret) => path === secret || path.startsWith(`${secret}/`))
  // A root with no secret location at or below it (and not inside one) needs no per-file check.
  const secretsUnder = (root: string): boolean => secrets.some((secret) => secret === root || secret.startsWith(root === '/' ? '/' : `${root}/`) || root.startsWith(`${secret}/`))
  // The guard wraps the front end's asker once the host (and its settings) exist.
  let asker: AskPermission | undefined
  const versions = new FileVersions()
  const host = await createHost({
    dshHome: options.dshHome,
    fs,
    tools: [...coreTools({ processes: options.processes, launcher: sandbox.launcher, search: { isSecretPath, secretsUnder }, versions }), ...codeModeTools(options.config, options.processes, sandbox.launcher), ...webFetchTools(options.config, options.env ?? {})],
    log: options.log,
    sharedWritableRoots: [tmpdir()],
    // The session's private temp directory of shell commands goes with it.
    onSessionEnd: (id) => sandbox.launcher.endSession(id),
    ...(frontEndAsk === undefined ? {} : { askPermission: (execution, reason) => (asker ?? frontEndAsk)(execution, reason) }),
  })
  // Disposers run in reverse order, so this one runs after the plugins below are gone.
  host.ctx.effect(() => () => options.processes.endAll().finally(() => sandbox.launcher.dispose()))
  // What each session last saw of each file, so `write` never drops someone else's change (issue 22 F3).
  await host.ctx.plugin(createFileVersionsPlugin(versions))
  if (options.config.checkpoints?.enabled !== false) await host.ctx.plugin(createCheckpointsPlugin({ dshHome: options.dshHome, log: options.log, ...options.config.checkpoints }))
  await host.ctx.plugin(createWorkspaceContextPlugin({ warn: (line) => options.log(`warning: ${line}`) }), instructionConfig(options.config.workspaceContext, options.dshHome))
  if (multiRootEnabled(options.config)) await host.ctx.plugin(createMultiRootWorkspacePlugin({ warn: (line) => options.log(`warning: ${line}`) }), multiRootConfig(options.config, options.dshHome))
  // After the instruction plugins: the catalog follows their messages in the first request.
  await host.ctx.plugin(createSkillsPlugin({ warn: (line) => options.log(`warning: ${line}`) }), { ...options.config.skills, dshHome: options.dshHome })
  // The task checklist: its tool, and its reminder after a compaction (after the catalog).
  await host.ctx.plugin(todoPlugin, { enabled: options.config.agent?.todo !== false })
  await host.ctx.plugin(SettingsPlugin, { file: join(options.dshHome, 'settings.yaml'), logger: options.log })
  // Mounted before the permission guard, so the hooks' guard is outside it: it sees the policy's
  // verdict (a deny stands without running hooks) and can only tighten it.
  await host.ctx.plugin(hooksPlugin(options, sandbox.mode))
  const installed = installPermissions(host, sandbox, { ...setupOptions, ask: frontEndAsk, cwd: options.cwd })
  asker = installed.askPermission
  const docs = await mountMaintainerDocGuard(host, options, (path) => sandbox.launcher.exempt(path))
  const agentOptions = agentRunOptions(host, options.agents)
  const depth = options.config.agent?.maxSubagentDepth ?? defaultSubagentDepth
  if (depth > 0) host.tools.register(createSubagentTool({ maxDepth: depth, startChild: createChildStarter(host, { provider: options.provider, ...agentOptions }) }))
  const mcp = startMcpServers(host, { dshHome: options.dshHome, cwd: options.cwd, config: options.config, configPath: options.configPath, mcpConfigFiles: options.mcp?.configFiles, env: options.mcp?.env ?? process.env, processes: options.processes, log: options.log, ...(options.mcp?.extraEntries === undefined ? {} : { extraEntries: options.mcp.extraEntries }) })
  return { host, agentOptions, sandbox, permissions: installed, ...(docs === undefined ? {} : { docs }), ...(mcp === undefined ? {} : { mcp }) }
}

/** Mounts maintainer-doc-guard when the config enables it (it changes how every turn runs). */
async function mountMaintainerDocGuard(host: Host, options: ComposeOptions, exempt: (path: string) => void): Promise<OperatorService | undefined> {
  const section = options.config.maintainerDocGuard
  if (section?.enabled !== true) return undefined
  const guard = createMaintainerDocGuard(section, { warn: (line) => options.log(`warning: ${line}`), judge: judgeModelOf(options.provider, options.agents.onRequest) })
  await host.ctx.plugin(guard)
  // An operator save is dsh's own write: the shell sandbox's creation watch leaves what it creates.
  return operatorServiceFor(guard, { fs: createLocalFileSystem({ writableRoots: [] }), sessions: host.sessions, dshHome: options.dshHome, beforeSave: exempt })
}

function agentRunOptions(host: Host, settings: AgentRunSettings): AgentRunOptions {
  const live = registerAgentSettings(host, { autoCompactShare: settings.autoCompactShare })
  return {
    ...(settings.maxSteps === undefined ? {} : { maxSteps: settings.maxSteps }),
    ...(settings.onRequest === undefined ? {} : { onRequest: settings.onRequest }),
    ...(settings.attachMentions === undefined ? {} : { attachMentions: settings.attachMentions }),
    autoCompact: {
      // Read at every step, so an edit of settings.yaml applies to running agents.
      get share() {
        return live.get().autoCompactShare
      },
      useModel: settings.autoCompactUseModel,
    },
  }
}

/** `web_fetch`, unless the config turns it or the sandbox's network off; through the proxy `env` names. */
function webFetchTools(config: ConfigFile, env: Readonly<Record<string, string | undefined>>): ToolDefinition[] {
  const agent = config.agent
  if (agent?.webFetch === false || config.sandbox?.network === false) return []
  return [createWebFetchTool({ allowPrivateNetwork: agent?.webFetchPrivateNetwork === true, userAgent: `dsh/${version} (web_fetch)`, proxy: proxySettings(env), ...(agent?.webFetchTimeoutMs === undefined ? {} : { timeoutMs: agent.webFetchTimeoutMs }) })]
}

function codeModeTools(config: ConfigFile, processes: ToolProcesses, launcher: ProcessLauncher): ToolDefinition[] {
  if (config.agent?.codeMode === false) return []
  const timeoutMs = config.agent?.runCodeTimeoutMs
  return [createRunCodeTool({ processes, launcher, ...(timeoutMs === undefined ? {} : { timeoutMs }) })]
}
