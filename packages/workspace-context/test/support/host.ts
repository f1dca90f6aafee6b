/**
 * Integration fixture: the real runtime host over a temp tree and the local filesystem adapter,
 * with the plugin mounted, a scripted model, and minimal file tools (read/write/edit report the
 * canonical paths they touched; `remove` deletes like a shell would, reporting nothing).
 */
import { rm } from 'node:fs/promises'
import { z } from 'zod'
import type { ChatRequestBody, ToolDefinition } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { createHost, type Host } from '@dsh/runtime'
import { tempTree, type TempTree, type TreeSpec } from '@dsh/testkit'
import type { ConfigInput } from '../../src/config.ts'
import { createWorkspaceContextPlugin } from '../../src/plugin.ts'

const pathArgs = z.object({ file_path: z.string() })

function fileTools(): ToolDefinition[] {
  const read: ToolDefinition<{ file_path: string }> = {
    name: 'read',
    description: 'Reads a file.',
    parameters: pathArgs,
    async execute(args, run) {
      const target = await run.fs.resolve(args.file_path, { cwd: run.cwd, signal: run.signal })
      const { text } = await run.fs.readText(target.path, { signal: run.signal })
      return { content: text, touched: [{ path: target.path, kind: 'read' }] }
    },
  }
  const write: ToolDefinition<{ file_path: string; content: string }> = {
    name: 'write',
    description: 'Writes a file.',
    parameters: z.object({ file_path: z.string(), content: z.string() }),
    async execute(args, run) {
      const target = await run.fs.resolve(args.file_path, { cwd: run.cwd, signal: run.signal })
      await run.fs.writeText(target.path, args.content, { signal: run.signal })
      return { content: 'written', touched: [{ path: target.path, kind: 'write' }] }
    },
  }
  const edit: ToolDefinition<{ file_path: string; old_string: string; new_string: string }> = {
    name: 'edit',
    description: 'Edits a file.',
    parameters: z.object({ file_path: z.string(), old_string: z.string(), new_string: z.string() }),
    async execute(args, run) {
      const target = await run.fs.resolve(args.file_path, { cwd: run.cwd, signal: run.signal })
      await run.fs.editText(target.path, { oldString: args.old_string, newString: args.new_string }, { signal: run.signal })
      return { content: 'edited', touched: [{ path: target.path, kind: 'edit' }] }
    },
  }
  const remove: ToolDefinition<{ file_path: string }> = {
    name: 'remove',
    description: 'Deletes a file (like a shell command: reports no touched path).',
    parameters: pathArgs,
    async execute(args, run) {
      const target = await run.fs.resolve(args.file_path, { cwd: run.cwd })
      await rm(target.path, { force: true })
      return { content: 'removed' }
    },
  }
  return [read, write, edit, remove]
}

/** A running integration fixture. */
export interface HostFixture {
  readonly tree: TempTree
  readonly host: Host
  readonly requests: ChatRequestBody[]
  readonly cwd: string
  start(script: ModelScript, resume?: string): ReturnType<Host['startAgent']>
  dispose(): Promise<void>
}

/** Builds a host over `spec` (paths relative to the tree; the repo lives under `repo/`). */
export async function hostFixture(spec: TreeSpec, config: Partial<ConfigInput> = {}): Promise<HostFixture> {
  const tree = await tempTree(spec)
  const fs = createLocalFileSystem({ writableRoots: [tree.root] })
  const host = await createHost({ dshHome: tree.path('home'), fs, log: () => undefined })
  for (const tool of fileTools()) {
    // The registry is typed for tools of any argument type (`ToolDefinition<never>`); the pipeline validates arguments.
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion, typescript/no-unnecessary-type-assertion
    if (host.tools.get(tool.name) === undefined) host.tools.register(tool as ToolDefinition<never>)
  }
  const pluginConfig: ConfigInput = { maxBytes: 65536, dshHome: tree.path('home'), ...config }
  await host.ctx.plugin(createWorkspaceContextPlugin({ environment: { env: {}, home: tree.path('user') } }), pluginConfig)
  const requests: ChatRequestBody[] = []
  const cwd = tree.path('repo')
  return {
    tree,
    host,
    requests,
    cwd,
    start: (script, resume) => host.startAgent({ cwd, provider: createScriptedProvider(script), onRequest: (body) => requests.push(body), ...(resume === undefined ? {} : { resume }) }),
    dispose: async () => {
      await host.dispose()
      await tree.dispose()
    },
  }
}

/** User-role contents of a request body, in order. */
export const userContents = (body: ChatRequestBody | undefined): string[] => (body?.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content)

/** A read tool call. */
export const readCall = (file_path: string) => ({ toolCalls: [{ name: 'read', arguments: { file_path } }] })
