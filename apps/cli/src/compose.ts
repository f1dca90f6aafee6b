/**
 * Composition of the CLI product: the local filesystem, the core tools and the plugins on one host.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLocalFileSystem } from '@dsh/fs-local'
import type { ModelProvider, ToolDefinition } from '@dsh/contracts'
import { createRunCodeTool } from '@dsh/code-mode'
import { createHost, type AskPermission, type Host } from '@dsh/runtime'
import { SettingsPlugin } from '@dsh/settings'
import { createChildStarter, createSubagentTool } from '@dsh/subagent'
import { coreTools } from '@dsh/tools'
import { workspaceContextPlugin } from '@dsh/workspace-context'
import type { ConfigFile } from './config-file.ts'
import { instructionConfig } from './instruction-config.ts'

/** Inputs of a composition. */
export interface ComposeOptions {
  /** Resolved home. */
  readonly dshHome: string
  /** Session working directory (canonical). */
  readonly cwd: string
  /** Validated config file (empty object when none). */
  readonly config: ConfigFile
  /** Diagnostics sink. */
  readonly log: (line: string) => void
  /** Approval for `ask` verdicts. */
  readonly askPermission?: AskPermission
  /** The model provider (subagents share it). */
  readonly provider: ModelProvider
}

/** Default delegation depth of subagents. */
export const defaultSubagentDepth = 2

/** Builds the host with every product plugin mounted. */
export async function composeHost(options: ComposeOptions): Promise<Host> {
  const fs = createLocalFileSystem({ writableRoots: [options.cwd, tmpdir()] })
  const host = await createHost({
    dshHome: options.dshHome,
    fs,
    tools: [...coreTools(), ...codeModeTools(options.config)],
    log: options.log,
    ...(options.askPermission === undefined ? {} : { askPermission: options.askPermission }),
  })
  await host.ctx.plugin(workspaceContextPlugin, instructionConfig(options.config.workspaceContext, options.dshHome))
  await host.ctx.plugin(SettingsPlugin, { file: join(options.dshHome, 'settings.yaml'), logger: options.log })
  const depth = options.config.agent?.maxSubagentDepth ?? defaultSubagentDepth
  if (depth > 0) host.tools.register(createSubagentTool({ maxDepth: depth, startChild: createChildStarter(host, { provider: options.provider }) }))
  return host
}

function codeModeTools(config: ConfigFile): ToolDefinition[] {
  if (config.agent?.codeMode === false) return []
  const timeoutMs = config.agent?.runCodeTimeoutMs
  return [createRunCodeTool(timeoutMs === undefined ? {} : { timeoutMs })]
}
