/**
 * The host: one plugin-host root context with the kernel services (system prompt, tool
 * registry, optional filesystem), a session store, and agents started or resumed over it.
 */
import { errorMessage } from './errors.ts'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import type { ChatRequestBody, FileSystemPort, ModelProvider, ToolDefinition } from '@dsh/contracts'
import { Agent } from './agent.ts'
import type { AutoCompactSettings } from './auto-compaction.ts'
import { installDefaultPrompt } from './default-prompt.ts'
import type { SessionFileIo } from './file-io.ts'
import { SessionStore } from './session-store.ts'
import { SystemPrompt } from './system-prompt.ts'
import type { AskPermission } from './tool-pipeline.ts'
import { ToolRegistry } from './tool-registry.ts'
import { sessionFileSystem } from './write-grants.ts'

/** Host options. */
export interface HostOptions {
  /** Resolved `$DSH_HOME`. Sessions live in `<dshHome>/sessions`. */
  readonly dshHome: string
  /** Filesystem provider; provided as the `fs` service when present. */
  readonly fs?: FileSystemPort
  /** Tools to register at start. */
  readonly tools?: readonly ToolDefinition[]
  /** Diagnostics sink (stderr in the CLI). */
  readonly log?: (line: string) => void
  /** Clock for timestamps (tests pin it). */
  readonly clock?: () => Date
  /** Approval of `ask` verdicts; absent means deny. */
  readonly askPermission?: AskPermission
  /**
   * Roots every session's tools may write besides the session's own working directory and its
   * additional roots (absolute; the CLI passes the OS temp directory). Default: none.
   */
  readonly sharedWritableRoots?: readonly string[]
  /** The write and flush calls of session files (default: `node:fs`; tests delay or fail them). */
  readonly sessionIo?: SessionFileIo
  /** Called with the session id when its agent is disposed (the CLI removes the session's private temp directory). Must not throw. */
  readonly onSessionEnd?: (sessionId: string) => void
}

/** Options of `startAgent`. */
export interface StartAgentOptions {
  /** Working directory (absolute) for a new session; ignored on resume. */
  readonly cwd: string
  /** Model provider. */
  readonly provider: ModelProvider
  /** Session id to resume instead of creating one. */
  readonly resume?: string
  /** Receives each request body before it is sent. */
  readonly onRequest?: (body: ChatRequestBody) => void
  /** Step limit per turn. */
  readonly maxSteps?: number
  /** Send the contents of the files a prompt `@`-mentions with it (read through the tool pipeline). Default: off. */
  readonly attachMentions?: boolean
  /** Automatic compaction; absent disables it. */
  readonly autoCompact?: AutoCompactSettings
  /**
   * Wraps the filesystem this session's tools use (an editor front end routes reads and writes of
   * open buffers through the editor). It receives the session's confined view; writes must stay
   * within that view's `writableRoots()`. Absent: the tools use the view as it is.
   */
  readonly toolFs?: (fs: FileSystemPort) => FileSystemPort
  /**
   * The tools this agent offers: a registry layered over the host's (`new ToolRegistry({ base:
   * host.tools })`) with tools of this session only (an editor's MCP servers). Absent: the host's.
   */
  readonly tools?: ToolRegistry
  /** Child session fields (subagents). */
  readonly parentSession?: string
  readonly delegationDepth?: number
}

/** A composed kernel. */
export interface Host {
  /** Root plugin-host context. */
  readonly ctx: Context
  /** Resolved home. */
  readonly dshHome: string
  /** Session storage. */
  readonly sessions: SessionStore
  /** The system prompt service. */
  readonly systemPrompt: SystemPrompt
  /** The tool registry. */
  readonly tools: ToolRegistry
  /** Starts (or resumes) an agent. */
  startAgent(options: StartAgentOptions): Promise<Agent>
  /** Disposes every agent and plugin. */
  dispose(): Promise<void>
}

/** Creates a host. */
export function createHost(options: HostOptions): Promise<Host> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const clock = options.clock ?? (() => new Date())
  const ctx = new Context()
  const systemPrompt = new SystemPrompt()
  const tools = new ToolRegistry()
  ctx.provide('systemPrompt', systemPrompt)
  ctx.provide('tools', tools)
  ctx.provide('dshHome', options.dshHome)
  if (options.fs !== undefined) ctx.provide('fs', options.fs)
  installDefaultPrompt(systemPrompt)
  for (const tool of options.tools ?? []) tools.register(tool)
  const sessions = new SessionStore({ directory: join(options.dshHome, 'sessions'), clock, warn: (line) => log(`warning: ${line}`), ...(options.sessionIo === undefined ? {} : { io: options.sessionIo }) })
  const agents = new Set<Agent>()

  const startAgent = (start: StartAgentOptions): Promise<Agent> => {
    const session =
      start.resume === undefined
        ? sessions.create({
            cwd: start.cwd,
            ...(start.parentSession === undefined ? {} : { parentSession: start.parentSession, origin: 'subagent' as const }),
            ...(start.delegationDepth === undefined ? {} : { delegationDepth: start.delegationDepth }),
          })
        : sessions.open(start.resume)
    session.setOnCommitted((view, event) => {
      // session/event observers are contained: a failing listener is logged, the append stands.
      ctx.parallel('session/event', view, event).catch((error: unknown) => log(`session/event listener failed: ${errorMessage(error)}`))
    })
    // The session's tools write within its own grant for as long as its agent lives, whichever
    // directory the process runs in (a resumed session keeps the cwd it was created with).
    let releaseRoot: (() => void) | undefined
    let agent: Agent
    try {
      const grant = sessionFileSystem({ ctx, fs: options.fs, session, shared: options.sharedWritableRoots ?? [] })
      releaseRoot = grant.release
      agent = new Agent({
      ctx,
      session,
      onDispose: () => {
        releaseRoot?.()
        agents.delete(agent)
        options.onSessionEnd?.(session.header.id)
      },
      provider: start.provider,
      registry: start.tools ?? tools,
      systemPrompt,
      fs: grant.fs === undefined || start.toolFs === undefined ? grant.fs : start.toolFs(grant.fs),
      log,
      maxSteps: start.maxSteps,
      attachMentions: start.attachMentions,
      onRequest: start.onRequest,
      askPermission: options.askPermission,
      autoCompact: start.autoCompact,
    })
    } catch (error) {
      // Starting failed (a bad root, a repair append that failed): release what was acquired for it.
      releaseRoot?.()
      session.close()
      throw error
    }
    agents.add(agent)
    return Promise.resolve(agent)
  }

  return Promise.resolve({
    ctx,
    dshHome: options.dshHome,
    sessions,
    systemPrompt,
    tools,
    startAgent,
    dispose: async () => {
      // Each running turn is cancelled and closes itself in its log before its session is closed.
      await Promise.all([...agents].map((agent) => agent.stop()))
      agents.clear()
      await ctx.fiber.dispose()
    },
  })
}
