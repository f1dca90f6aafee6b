// A real host over a temp tree (local filesystem, core tools, scripted model) with workspace-context
// and the skills plugin mounted as the CLI mounts them, plus readers for the catalog messages.
import type { ChatRequestBody, SessionView, UserMessage } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { createHost, type Agent, type Host } from '@dsh/runtime'
import { tempTree, type TempTree, type TreeSpec } from '@dsh/testkit'
import { coreTools } from '@dsh/tools'
import { createMultiRootWorkspacePlugin } from '@dsh/multi-root-workspace'
import { createWorkspaceContextPlugin } from '@dsh/workspace-context'
import { catalogChanges, createSkillsPlugin, type CatalogChange } from '../../src/index.ts'

/** The rig. */
export interface Rig {
  readonly tree: TempTree
  readonly host: Host
  readonly requests: ChatRequestBody[]
  readonly warnings: string[]
  start(cwd: string, script: ModelScript, options?: { readonly resume?: string }): Promise<Agent>
  dispose(): Promise<void>
}

/** Builds the rig; `home/` is `$DSH_HOME`, `os-home/` the OS home. */
export async function skillsRig(spec: TreeSpec, config: Record<string, unknown> = {}, options: { readonly multiRoot?: boolean } = {}): Promise<Rig> {
  const tree = await tempTree({ 'home/': null, 'os-home/': null, ...spec })
  const fs = createLocalFileSystem({ writableRoots: [tree.root] })
  const host = await createHost({ dshHome: tree.path('home'), fs, tools: coreTools(), sharedWritableRoots: [tree.root], log: () => undefined })
  const requests: ChatRequestBody[] = []
  const warnings: string[] = []
  await host.ctx.plugin(createWorkspaceContextPlugin({ warn: (line) => warnings.push(line) }), { maxBytes: 65_536, dshHome: tree.path('home') })
  if (options.multiRoot === true) await host.ctx.plugin(createMultiRootWorkspacePlugin({ warn: (line) => warnings.push(line) }), { dshHome: tree.path('home') })
  await host.ctx.plugin(createSkillsPlugin({ warn: (line) => warnings.push(line), home: tree.path('os-home') }), { ...config, dshHome: tree.path('home') })
  return {
    tree,
    host,
    requests,
    warnings,
    start: (cwd, script, start = {}) => host.startAgent({ cwd: tree.path(cwd), provider: createScriptedProvider(script), onRequest: (body) => requests.push(body), ...(start.resume === undefined ? {} : { resume: start.resume }) }),
    dispose: async () => {
      await host.dispose()
      await tree.dispose()
    },
  }
}

/** One catalog message as logged. */
export interface LoggedCatalog {
  readonly text: string
  readonly changes: readonly CatalogChange[]
}

const isUserMessage = (value: unknown): value is UserMessage => typeof value === 'object' && value !== null && Reflect.get(value, 'role') === 'user' && Array.isArray(Reflect.get(value, 'content'))

/** Every catalog message in the session log, in order. */
export function catalogMessages(session: SessionView): LoggedCatalog[] {
  const found: LoggedCatalog[] = []
  for (const event of session.events) {
    if (event.type !== 'user/message') continue
    const data: unknown = event.data
    const message: unknown = typeof data === 'object' && data !== null ? Reflect.get(data, 'message') : undefined
    if (!isUserMessage(message)) continue
    const changes = catalogChanges(message)
    if (changes === undefined) continue
    found.push({ text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''), changes })
  }
  return found
}

/** A scripted tool call. */
export const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] })

/** A SKILL.md text. */
export const skillFile = (name: string, description: string, body = `Steps of ${name}.\n`, extra = ''): string => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`
