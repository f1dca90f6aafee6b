// A real host over a temp tree (local filesystem, core tools, scripted model) with the todo
// plugin mounted as the CLI mounts it, and readers of what the requests held.
import type { ChatRequestBody } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { createHost, type Agent, type Host } from '@dsh/runtime'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createRunCodeTool } from '@dsh/code-mode'
import { coreTools } from '@dsh/tools'
import { todoPlugin, type TodoItem } from '../src/index.ts'

export interface Rig {
  readonly tree: TempTree
  readonly host: Host
  readonly requests: ChatRequestBody[]
  start(script: ModelScript, options?: { readonly resume?: string }): Promise<Agent>
  dispose(): Promise<void>
}

/** `runCode`: run_code besides the core tools (its snippets call tools.todo_write). */
export async function todoRig(config: { readonly enabled?: boolean } = {}, options: { readonly runCode?: boolean } = {}): Promise<Rig> {
  const tree = await tempTree({ 'home/': null, 'repo/.git/': null })
  const host = await createHost({ dshHome: tree.path('home'), fs: createLocalFileSystem({ writableRoots: [tree.root] }), tools: options.runCode === true ? [...coreTools(), createRunCodeTool()] : coreTools(), log: () => undefined })
  await host.ctx.plugin(todoPlugin, config)
  const requests: ChatRequestBody[] = []
  return {
    tree,
    host,
    requests,
    start: (script, start = {}) => host.startAgent({ cwd: tree.path('repo'), provider: createScriptedProvider(script), onRequest: (body) => requests.push(body), ...(start.resume === undefined ? {} : { resume: start.resume }) }),
    dispose: async () => {
      await host.dispose()
      await tree.dispose()
    },
  }
}

/** A scripted step that writes `todos`. */
export const write = (todos: readonly TodoItem[]) => ({ toolCalls: [{ name: 'todo_write', arguments: { todos } }] })

/** The user-role texts of a request. */
export const userTexts = (body: ChatRequestBody | undefined): string[] => (body?.messages ?? []).filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : ''))

/** The tool-result texts of a request. */
export const toolTexts = (body: ChatRequestBody | undefined): string[] => (body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : ''))
