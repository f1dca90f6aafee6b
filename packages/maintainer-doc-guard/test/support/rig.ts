/**
 * Test rig: the real runtime host over a temp tree with the local filesystem and the core tools,
 * the guard mounted (optionally with the settings service), a scripted model per agent, and
 * helpers to read what the model saw.
 */
import { join } from 'node:path'
import type { ChatRequestBody, FileSystemPort, ToolDefinition, WireMessage } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createScriptedProvider, type ModelScript, type ScriptedResponse } from '@dsh/llm-scripted'
import { createHost, type Agent, type Host } from '@dsh/runtime'
import { SettingsPlugin } from '@dsh/settings'
import { createChildStarter, createSubagentTool } from '@dsh/subagent'
import { tempTree, type TempTree, type TreeSpec } from '@dsh/testkit'
import { coreTools } from '@dsh/tools'
import type { ConfigInput } from '../../src/config-schema.ts'
import { createMaintainerDocGuard, type GuardHooks, type MaintainerDocGuard } from '../../src/plugin.ts'

/** Options of {@link rig}. */
export interface RigOptions {
  readonly config?: ConfigInput
  readonly hooks?: GuardHooks
  /** Mount the settings service (`$DSH_HOME/settings.yaml`). */
  readonly settings?: boolean
  readonly extraTools?: readonly ToolDefinition[]
  /** Do not mount the guard at all (baseline compositions). */
  readonly withoutGuard?: boolean
  /** Wraps the filesystem port (fault injection). */
  readonly wrapFs?: (fs: FileSystemPort) => FileSystemPort
  /** Registers the subagent tool; children replay this script. */
  readonly childScript?: readonly ScriptedResponse[]
}

/** A running rig. */
export interface Rig {
  readonly tree: TempTree
  readonly host: Host
  readonly guard: MaintainerDocGuard
  readonly requests: ChatRequestBody[]
  /** Requests of subagents. */
  readonly childRequests: ChatRequestBody[]
  readonly warnings: string[]
  /** The workspace (`<tree>/repo`). */
  readonly cwd: string
  start(script: ModelScript | readonly ScriptedResponse[], resume?: string): Promise<Agent>
  dispose(): Promise<void>
}

/** Builds a rig over `spec` (the repository lives under `repo/`, with a `.git` marker). */
export async function rig(spec: TreeSpec = {}, options: RigOptions = {}): Promise<Rig> {
  const tree = await tempTree({ 'repo/.git/HEAD': 'ref: main\n', ...spec })
  const warnings: string[] = []
  const dshHome = tree.path('home')
  const local = createLocalFileSystem({ writableRoots: [tree.path('repo')] })
  const host = await createHost({
    dshHome,
    fs: options.wrapFs === undefined ? local : options.wrapFs(local),
    tools: [...coreTools(), ...(options.extraTools ?? [])],
    log: (line) => warnings.push(line),
  })
  if (options.settings === true) await host.ctx.plugin(SettingsPlugin, { file: join(dshHome, 'settings.yaml'), logger: (line) => warnings.push(line), debounceMs: 10 })
  const guard = createMaintainerDocGuard({ enabled: true, ...options.config }, { warn: (line) => warnings.push(line), clock: () => new Date('2026-12-01T10:00:00Z'), ...options.hooks })
  if (options.withoutGuard !== true) await host.ctx.plugin(guard)
  const requests: ChatRequestBody[] = []
  const childRequests: ChatRequestBody[] = []
  if (options.childScript !== undefined) {
    const provider = createScriptedProvider({ responses: [...options.childScript] })
    host.tools.register(createSubagentTool({ startChild: createChildStarter(host, { provider, onRequest: (body) => childRequests.push(body) }) }))
  }
  return {
    tree,
    host,
    guard,
    requests,
    childRequests,
    warnings,
    cwd: tree.path('repo'),
    start: (script, resume) =>
      host.startAgent({
        cwd: tree.path('repo'),
        provider: createScriptedProvider('responses' in script ? script : { responses: [...script] }),
        onRequest: (body) => requests.push(body),
        ...(resume === undefined ? {} : { resume }),
      }),
    dispose: async () => {
      await host.dispose()
      await tree.dispose()
    },
  }
}

/** The system prompt of a request. */
export function systemOf(body: ChatRequestBody | undefined): string {
  const first = body?.messages[0]
  return first?.role === 'system' ? first.content : ''
}

/** Everything a request tells the model as text: the system prompt and the user-role messages. */
export function promptTexts(body: ChatRequestBody | undefined): string {
  return [systemOf(body), ...userTexts(body)].join('\n')
}

/** The user-role texts of a request, in order. */
export function userTexts(body: ChatRequestBody | undefined): string[] {
  return (body?.messages ?? []).flatMap((message: WireMessage) => (message.role === 'user' ? [message.content] : []))
}

/** The tool results of a request, in order. */
export function toolTexts(body: ChatRequestBody | undefined): string[] {
  return (body?.messages ?? []).flatMap((message: WireMessage) => (message.role === 'tool' ? [message.content] : []))
}

/** A scripted response that calls one tool, with optional narration. */
export function call(name: string, args: Record<string, unknown>, text?: string): ScriptedResponse {
  return { toolCalls: [{ name, arguments: args }], ...(text === undefined ? {} : { text }) }
}

/** Notices of the guard in a request (user-role texts starting with its prefix). */
export function notices(body: ChatRequestBody | undefined): string[] {
  return userTexts(body).filter((text) => text.startsWith('maintainer-doc-guard:'))
}

/** The content of the last message of a request. */
export function lastMessage(body: ChatRequestBody | undefined): string | null | undefined {
  return body?.messages.at(-1)?.content
}
