// A real host over a temp tree (local filesystem, core tools, scripted model) with the plugin
// mounted, plus readers for what the plugin put into the session log.
import type { ChatRequestBody, FileSystemPort, SessionView, UserMessage, WorkspaceInstructionsSource } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { createHost, type Agent, type Host } from '@dsh/runtime'
import { tempTree, type TempTree, type TreeSpec } from '@dsh/testkit'
import { coreTools } from '@dsh/tools'
import { createWorkspaceContextPlugin } from '@dsh/workspace-context'
import { createMultiRootWorkspacePlugin, PLUGIN_NAME, type ConfigInput, type SessionRoots } from '../../src/index.ts'

/** The rig. */
export interface Rig {
  readonly tree: TempTree
  readonly host: Host
  /** Every request body sent, in order. */
  readonly requests: ChatRequestBody[]
  readonly warnings: string[]
  /** Starts (or resumes) an agent in `cwd` (relative to the tree). */
  start(cwd: string, script: ModelScript, options?: { readonly resume?: string }): Promise<Agent>
  /** The roots of an agent's session. */
  roots(agent: Agent): SessionRoots
  dispose(): Promise<void>
}

/** What the host is composed of besides the tree. */
export interface RigOptions {
  /** Mount this plugin with this config (`false`: do not mount it). Default `{}`. */
  readonly plugin?: ConfigInput | false
  /** Also mount workspace-context (as the CLI does). */
  readonly workspaceContext?: boolean
  /** Wraps the local filesystem (failure and cancellation injection). */
  readonly wrapFs?: (fs: FileSystemPort) => FileSystemPort
  /** Use this tree instead of creating one (a second host over the same files). */
  readonly tree?: TempTree
}

/** Builds the rig over a temp tree with `spec` (every session may write anywhere in the tree). */
export async function multiRootRig(spec: TreeSpec, config: ConfigInput = {}, options: RigOptions = {}): Promise<Rig> {
  const tree = options.tree ?? (await tempTree({ 'home/': null, ...spec }))
  const local = createLocalFileSystem({ writableRoots: [tree.root] })
  const host = await createHost({ dshHome: tree.path('home'), fs: options.wrapFs?.(local) ?? local, tools: coreTools(), sharedWritableRoots: [tree.root], log: () => undefined })
  const requests: ChatRequestBody[] = []
  const warnings: string[] = []
  if (options.workspaceContext === true) await host.ctx.plugin(createWorkspaceContextPlugin({ warn: (line) => warnings.push(line) }), { maxBytes: 65_536, dshHome: tree.path('home') })
  const plugin = options.plugin ?? config
  if (plugin !== false) await host.ctx.plugin(createMultiRootWorkspacePlugin({ warn: (line) => warnings.push(line) }), plugin)
  return {
    tree,
    host,
    requests,
    warnings,
    start: (cwd, script, start = {}) => host.startAgent({ cwd: tree.path(cwd), provider: createScriptedProvider(script), onRequest: (body) => requests.push(body), ...(start.resume === undefined ? {} : { resume: start.resume }) }),
    roots: (agent) => {
      const service = host.ctx.get('workspaceRoots')
      if (service === undefined) throw new Error('the workspaceRoots service is not provided')
      // The service is this package's RootsService, whose sessions are SessionRoots.
      // oxlint-disable-next-line typescript/no-unsafe-type-assertion
      return service.session(agent.session) as SessionRoots
    },
    dispose: async () => {
      await host.dispose()
      await tree.dispose()
    },
  }
}

/** One message of the plugin as logged, with the step that entered it. */
export interface PluginMessage {
  readonly turn: number
  readonly step: number
  readonly text: string
  readonly changes: WorkspaceInstructionsSource['changes']
}

/** Every message of the plugin in the session log, in order. */
export function pluginMessages(session: SessionView): PluginMessage[] {
  const found: PluginMessage[] = []
  for (const event of session.events) {
    if (event.type !== 'user/message') continue
    // The runtime writes `{ message, turn, step }` for every user/message event.
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion
    const data = event.data as { message: UserMessage; turn: number; step: number }
    const source = data.message.source
    if (source.kind !== 'workspace-instructions' || source.plugin !== PLUGIN_NAME) continue
    found.push({ turn: data.turn, step: data.step, text: data.message.content.map((block) => block.text).join(''), changes: source.changes })
  }
  return found
}

/** A read call. */
export const read = (file_path: string) => ({ toolCalls: [{ name: 'read', arguments: { file_path } }] })
/** A write call. */
export const write = (file_path: string, content: string) => ({ toolCalls: [{ name: 'write', arguments: { file_path, content } }] })
/** An edit call. */
export const edit = (file_path: string, old_string: string, new_string: string) => ({ toolCalls: [{ name: 'edit', arguments: { file_path, old_string, new_string } }] })
