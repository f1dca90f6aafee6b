// An ACP agent app over a real host (local filesystem, core tools, workspace-context and
// multi-root plugins) in a temp tree, and an SDK client app connected to it directly. Only the
// model is scripted: one script per working directory, so concurrent sessions stay deterministic.
import { client, type AgentApp, type ClientContext, type RequestPermissionRequest, type RequestPermissionResponse, type SessionNotification } from '@agentclientprotocol/sdk'
import { createRunCodeTool } from '@dsh/code-mode'
import type { ChatRequestBody } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { createMultiRootWorkspacePlugin, refusedSessionDirectory } from '@dsh/multi-root-workspace'
import { installPermissionGuard } from '@dsh/permissions'
import { createHost, type AskPermission, type Host } from '@dsh/runtime'
import { createChildStarter, createSubagentTool } from '@dsh/subagent'
import { coreTools, ToolProcesses } from '@dsh/tools'
import { createWorkspaceContextPlugin } from '@dsh/workspace-context'
import { AcpSessionRegistry, askThroughClient, createAcpAgentApp } from '../src/index.ts'

/** A composed agent side. */
export interface AcpSide {
  readonly app: AgentApp
  readonly host: Host
  readonly requests: ChatRequestBody[]
  readonly logs: string[]
  dispose(): Promise<void>
}

/** Composes the host and the agent app; `scripts` maps a canonical working directory to its script. */
export async function agentSide(options: { readonly dshHome: string; readonly scripts: Readonly<Record<string, ModelScript>>; readonly maxSteps?: number; readonly subagents?: boolean; readonly sandbox?: boolean; readonly codeMode?: boolean; readonly autoCompact?: { readonly contextWindow: number; readonly share: number } }): Promise<AcpSide> {
  const logs: string[] = []
  const requests: ChatRequestBody[] = []
  const registry = new AcpSessionRegistry()
  const processes = new ToolProcesses()
  // The permission policy as `dsh acp` composes it (mode ask), without the sandbox itself (`sandbox`
  // says whether the policy believes one is there; default yes): the guard wraps the editor's
  // asker and records every decision on the session.
  let asker: AskPermission | undefined
  const host = await createHost({ dshHome: options.dshHome, fs: createLocalFileSystem({ writableRoots: [] }), tools: [...coreTools({ processes }), ...(options.codeMode === true ? [createRunCodeTool({ processes })] : [])], log: (line) => logs.push(line), askPermission: (execution, reason) => (asker ?? askThroughClient(registry))(execution, reason) })
  asker = installPermissionGuard(host.ctx, { mode: 'ask', rules: () => ({ allow: [], deny: [] }), sandboxAvailable: () => options.sandbox ?? true, ask: askThroughClient(registry), cwd: options.dshHome }).askPermission
  await host.ctx.plugin(createWorkspaceContextPlugin({ warn: (line) => logs.push(line) }), { dshHome: options.dshHome, maxBytes: 65_536 })
  await host.ctx.plugin(createMultiRootWorkspacePlugin({ warn: (line) => logs.push(line) }), { dshHome: options.dshHome })
  const providers = new Map(Object.entries(options.scripts).map(([cwd, script]) => [cwd, createScriptedProvider(script, options.autoCompact === undefined ? {} : { contextWindow: options.autoCompact.contextWindow })]))
  // Subagents share the script of the (single) working directory, consumed in call order.
  const first = [...providers.values()][0]
  if (options.subagents === true && first !== undefined) host.tools.register(createSubagentTool({ maxDepth: 2, startChild: createChildStarter(host, { provider: first, onRequest: (body) => requests.push(body) }) }))
  const app = createAcpAgentApp({
    host,
    registry,
    startOptions: (cwd) => {
      const provider = providers.get(cwd)
      if (provider === undefined) throw new Error(`no script for ${cwd}`)
      return { cwd, provider, onRequest: (body) => requests.push(body), ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }), ...(options.autoCompact === undefined ? {} : { autoCompact: { share: options.autoCompact.share, useModel: false } }) }
    },
    // The CLI's check (apps/cli/src/add-dirs.ts): a directory already a root is accepted.
    checkDirectories: (primary, dirs) => refusedSessionDirectory({ dshHome: options.dshHome, primary, dirs }),
    extraDirectories: [],
    agentInfo: { name: 'dsh', title: 'dsh', version: '0.0.0-test' },
    log: (line) => logs.push(line),
  })
  return {
    app,
    host,
    requests,
    logs,
    dispose: async () => {
      await host.dispose()
      await processes.endAll()
    },
  }
}

/** What the client saw, and how it answers. */
export interface ClientSide {
  readonly updates: SessionNotification[]
  readonly permissions: RequestPermissionRequest[]
  readonly reads: string[]
  readonly writes: { path: string; content: string }[]
}

/** Client behaviour. */
export interface ClientOptions {
  /** Answers permission questions (default: reject); `seen` is what the client has received so far. */
  readonly answer?: (request: RequestPermissionRequest, seen: ClientSide) => RequestPermissionResponse | Promise<RequestPermissionResponse>
  /** Answers `fs/read_text_file` (the editor's buffers); absent: the client does not advertise fs. */
  readonly buffers?: { read(path: string): string; write(path: string, content: string): void }
}

/** Connects a client app to `app` for the length of `work`; returns the work's result and what the client saw. */
export async function withClient<T>(app: AgentApp, options: ClientOptions, work: (ctx: ClientContext, seen: ClientSide) => Promise<T>): Promise<{ readonly value: T; readonly seen: ClientSide }> {
  const seen: ClientSide = { updates: [], permissions: [], reads: [], writes: [] }
  const buffers = options.buffers
  const app2 = client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => {
      seen.updates.push(params)
    })
    .onRequest('session/request_permission', async ({ params }) => {
      seen.permissions.push(params)
      return options.answer === undefined ? { outcome: { outcome: 'selected', optionId: 'reject' } } : await options.answer(params, seen)
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      seen.reads.push(params.path)
      if (buffers === undefined) throw new Error('no fs')
      return { content: buffers.read(params.path) }
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      seen.writes.push({ path: params.path, content: params.content })
      if (buffers === undefined) throw new Error('no fs')
      buffers.write(params.path, params.content)
      return {}
    })
  const value = await app2.connectWith(app, async (ctx) => {
    await ctx.request('initialize', { protocolVersion: 1, clientCapabilities: buffers === undefined ? {} : { fs: { readTextFile: true, writeTextFile: true } } })
    return work(ctx, seen)
  })
  return { value, seen }
}

/** The updates of one session, without the envelope. */
export const updatesOf = (seen: ClientSide, sessionId: string) => seen.updates.filter((note) => note.sessionId === sessionId).map((note) => note.update)

/** The text of every agent_message_chunk of a session, joined. */
export const answerOf = (seen: ClientSide, sessionId: string): string =>
  updatesOf(seen, sessionId)
    .map((update) => (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? update.content.text : ''))
    .join('')
