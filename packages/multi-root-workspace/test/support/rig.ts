// A real host over a temp tree (local filesystem, core tools, scripted model) with the plugin
// mounted, plus readers for what the plugin put into the session log.
import type { SessionView, UserMessage, WorkspaceInstructionsSource } from '@dsh/contracts'
import type { ModelScript } from '@dsh/llm-scripted'
import type { Agent } from '@dsh/runtime'
import { composeTestHost, tempTree, type TempTree, type TestHost, type TreeSpec } from '@dsh/testkit'
import { createMultiRootWorkspacePlugin, PLUGIN_NAME, type ConfigInput, type SessionRoots } from '../../src/index.ts'

/** The rig. */
export interface Rig {
  readonly tree: TempTree
  readonly test: TestHost
  readonly warnings: string[]
  /** Starts (or resumes) an agent in `cwd` (relative to the tree). */
  start(cwd: string, script: ModelScript, resume?: string): Promise<Agent>
  /** The roots of an agent's session. */
  roots(agent: Agent): SessionRoots
  dispose(): Promise<void>
}

/** Builds the rig; `config` is merged over an empty plugin config. */
export async function multiRootRig(spec: TreeSpec, config: ConfigInput = {}): Promise<Rig> {
  const tree = await tempTree({ 'home/': null, ...spec })
  const test = await composeTestHost({ dshHome: tree.path('home'), writableRoots: [tree.root] })
  const warnings: string[] = []
  await test.host.ctx.plugin(createMultiRootWorkspacePlugin({ warn: (line) => warnings.push(line) }), config)
  return {
    tree,
    test,
    warnings,
    start: (cwd, script, resume) => test.start({ cwd: tree.path(cwd), script, ...(resume === undefined ? {} : { resume }) }),
    roots: (agent) => {
      const service = test.host.ctx.get('workspaceRoots')
      if (service === undefined) throw new Error('the workspaceRoots service is not provided')
      // The service is this package's RootsService, whose sessions are SessionRoots.
      // oxlint-disable-next-line typescript/no-unsafe-type-assertion
      return service.session(agent.session) as SessionRoots
    },
    dispose: async () => {
      await test.host.dispose()
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
