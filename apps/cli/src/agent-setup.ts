/**
 * Shared setup of the commands that run an agent (`dsh run`, `dsh chat`): resolves the home, the
 * working directory, the config file and the model, creates the provider, composes the host and
 * builds the options `startAgent` needs (request log, step limit, automatic compaction; the
 * composition gives subagents the same ones).
 */
import { appendFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { ChatRequestBody, ModelProvider, PermissionMode } from '@dsh/contracts'
import { makeDirectories, type AskPermission, type Host, type StartAgentOptions } from '@dsh/runtime'
import { ToolProcesses } from '@dsh/tools'
import type { OperatorService } from '@dsh/maintainer-doc-guard'
import { errLine, type CliIo } from './cli-io.ts'
import { composeHost } from './compose.ts'
import { loadConfigFile, type ConfigFile } from './config-file.ts'
import { permissionsFrom } from './permission-options.ts'
import type { InstalledPermissions, SandboxSetup } from './permission-setup.ts'
import type { McpHub } from '@dsh/mcp'
import { cwdFrom, dshHomeFrom } from './global-options.ts'
import { LiveThinking } from './live-model-settings.ts'
import { defaultModelSpec, parseModelSpec, providerFromConfig, type ModelSpec } from './model-spec.ts'
import { storeFor } from './session-store-for.ts'
import { resumeEndpoint, storedEndpoint } from './resume-endpoint.ts'
import { appendToSystemPrompt } from './system-prompt-append.ts'

/** Default share of the context window that triggers automatic compaction. */
export const defaultAutoCompactShare = 0.8

/** Command-line options that shape the setup. */
export interface AgentSetupOptions {
  readonly dshHome?: string
  readonly cwd?: string
  readonly model?: string
  readonly baseUrl?: string
  /** `--thinking` / `--no-thinking`. */
  readonly thinking?: boolean
  /** `--effort`. */
  readonly effort?: string
  readonly config?: string
  /** `--resume ID`: the session's stored endpoint is used unless the flags or the config choose one. */
  readonly resume?: string | boolean
  readonly requestLog?: string
  readonly maxSteps?: number
  readonly permissionMode?: string
  readonly allow?: readonly string[]
  readonly deny?: readonly string[]
  /** `--mcp-config FILE`… (relative to the invocation directory). */
  readonly mcpConfig?: readonly string[]
  /** `--append-system-prompt TEXT`… (Claude Code's spelling): paragraphs after dsh's system prompt, in order. */
  readonly appendSystemPrompt?: readonly string[]
}

/** A composed host with its provider, ready to start agents. */
export interface AgentSetup {
  /** Resolved home. */
  readonly dshHome: string
  /** Canonical working directory. */
  readonly cwd: string
  /** Validated config (empty when none). */
  readonly config: ConfigFile
  /** The parsed model spec. */
  readonly spec: ModelSpec
  /** The model provider. */
  readonly provider: ModelProvider
  /** The composed host (dispose it when done). */
  readonly host: Host
  /** What tool calls left running; the host ends it when disposed. */
  readonly processes: ToolProcesses
  /** Diagnostics sink (stderr). */
  readonly log: (line: string) => void
  /** The request log (`--request-log`), for model calls made outside a turn (`/compact`). */
  readonly onRequest?: (body: ChatRequestBody) => void
  /** Options of `host.startAgent`; `resume` continues a stored session. */
  readonly startOptions: (resume?: string) => StartAgentOptions
  /**
   * The provider for continuing stored session `id` (ACP `session/load` and prompts): its stored
   * endpoint unless `--model` / `--base-url` / the config say otherwise, else this setup's
   * provider. The differing-endpoint note is logged once per session.
   */
  readonly providerFor: (id: string) => ModelProvider
  /** The live thinking modes (settings.yaml `model`), for providers made later (the chat's /model). */
  readonly thinking: LiveThinking
  /** The maintainer-documents operator service, when the guard is enabled. */
  readonly docs?: OperatorService
  /** The permission mode in force and the shell sandbox. */
  readonly sandbox: SandboxSetup
  /** The guard's controls and the configured rules with their sources. */
  readonly permissions: InstalledPermissions
  /** The MCP servers (absent when none is configured). */
  readonly mcp?: McpHub
}

/** Reads the config file, or an empty config; deprecated keys are reported on stderr unless `warn` says otherwise. */
export function configFrom(io: CliIo, file: string | undefined, warn = (line: string): void => errLine(io, `warning: ${line}`)): ConfigFile {
  return file === undefined ? {} : loadConfigFile(resolve(io.cwd, file), warn)
}

/** What a front end adds to the setup. */
export interface AgentSetupExtras {
  /** Decides `ask` verdicts; absent for front ends that cannot ask (`dsh run`). */
  readonly askPermission?: AskPermission
  /** Receives the host's diagnostics (default: a line on stderr). */
  readonly log?: (line: string) => void
  /** The front end's default permission mode (default `ask`; `dsh run` passes `full-auto`). */
  readonly defaultMode?: PermissionMode
  /** Overrides `--permission-mode` (the chat's `--yes`). */
  readonly mode?: PermissionMode
}

/** Resolves everything and composes the host. */
export async function prepareAgentSetup(io: CliIo, options: AgentSetupOptions, extras: AgentSetupExtras = {}): Promise<AgentSetup> {
  const flags = permissionsFrom(options, extras.defaultMode ?? 'ask')
  const permissions = extras.mode === undefined ? flags : { ...flags, mode: extras.mode }
  const dshHome = dshHomeFrom(io, options.dshHome)
  const cwd = cwdFrom(io, options.cwd)
  // A home that cannot hold sessions fails here, in one line, before any plugin reads from it.
  makeDirectories(join(dshHome, 'sessions'), { mode: 0o700 })
  const config = configFrom(io, options.config)
  const log = extras.log ?? ((line: string): void => errLine(io, line))
  const chosen = { spec: options.model ?? config.model?.spec, baseUrl: options.baseUrl ?? config.model?.baseUrl }
  const endpoint = typeof options.resume === 'string' ? resumeEndpoint(storedEndpoint(storeFor(io, options.dshHome), options.resume), chosen, options.resume) : chosen
  if ('note' in endpoint && endpoint.note !== undefined) log(endpoint.note)
  const spec = parseModelSpec(endpoint.spec ?? defaultModelSpec)
  const thinking = new LiveThinking({ thinking: config.model?.thinking, reasoningEffort: config.model?.reasoningEffort })
  const provider = providerFromConfig({ spec, cwd: io.cwd, env: io.env, baseUrl: endpoint.baseUrl, model: config.model, flags: options, live: thinking.read, log })
  const requestLog = options.requestLog === undefined ? undefined : resolve(io.cwd, options.requestLog)
  const onRequest = requestLog === undefined ? undefined : (body: ChatRequestBody): void => appendFileSync(requestLog, `${JSON.stringify(body)}\n`)
  const processes = new ToolProcesses()
  const { host, agentOptions, docs, sandbox, permissions: installed, mcp } = await composeHost({
    dshHome,
    ...(options.config === undefined ? {} : { configPath: resolve(io.cwd, options.config) }),
    cwd,
    config,
    log,
    provider,
    processes,
    env: io.env,
    permissions,
    agents: { maxSteps: options.maxSteps, onRequest, attachMentions: config.agent?.attachMentions ?? true, autoCompactShare: config.model?.autoCompactShare ?? defaultAutoCompactShare, autoCompactUseModel: spec.kind !== 'scripted' },
    ...(extras.askPermission === undefined ? {} : { askPermission: extras.askPermission }),
    mcp: { env: io.env, configFiles: (options.mcpConfig ?? []).map((file) => resolve(io.cwd, file)) },
  })
  thinking.bind(host)
  appendToSystemPrompt(host, options.appendSystemPrompt ?? [])
  const startOptions = (resume?: string): StartAgentOptions => ({ cwd, provider, ...(resume === undefined ? {} : { resume }), ...agentOptions })
  const noted = new Set<string>()
  const made = new Map<string, ModelProvider>()
  const providerFor = (id: string): ModelProvider => {
    const chosenFor = resumeEndpoint(storedEndpoint(storeFor(io, options.dshHome), id), chosen, id)
    const key = `${chosenFor.spec ?? defaultModelSpec} ${chosenFor.baseUrl ?? ''}`
    if (key === `${endpoint.spec ?? defaultModelSpec} ${endpoint.baseUrl ?? ''}`) return provider
    if (chosenFor.note !== undefined && !noted.has(id)) log(chosenFor.note)
    noted.add(id)
    const existing = made.get(key)
    if (existing !== undefined) return existing
    const created = providerFromConfig({ spec: parseModelSpec(chosenFor.spec ?? defaultModelSpec), cwd: io.cwd, env: io.env, baseUrl: chosenFor.baseUrl, model: config.model, flags: options, live: thinking.read, log })
    made.set(key, created)
    return created
  }
  return { dshHome, cwd, config, spec, provider, host, processes, log, startOptions, providerFor, thinking, sandbox, permissions: installed, ...(onRequest === undefined ? {} : { onRequest }), ...(docs === undefined ? {} : { docs }), ...(mcp === undefined ? {} : { mcp }) }
}
