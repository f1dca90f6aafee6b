/**
 * A small, deterministic stand-in for the agent loop, driving the plugin's hooks the way the
 * runtime does (ARCHITECTURE §3.3): claim the inbox, run the `agent/pre-step` waterfall, append
 * the entered batch, run each tool through `tools/pre-execute`, its effect, `tools/post-execute`
 * and `tools/result`, append the surviving contexts before `step/end` (discarded when the step
 * aborts), and compact through a surface `replace`. Tests say which tool results a step produces.
 */
import { randomUUID } from 'node:crypto'
import { Context } from '@deepseek-ai/cordis'
import type {
  AgentHandle,
  InboxMutations,
  InboxTarget,
  PostExecuteDecision,
  PreStepDecision,
  SessionEvent,
  SessionHeader,
  SessionView,
  SurfaceOp,
  ToolExecution,
  ToolFinalOutcome,
  ToolOutput,
  UserMessage,
} from '@dsh/contracts'
import type { ConfigInput } from '../../src/config.ts'
import { userMessageOf } from '../../src/guards.ts'
import { createWorkspaceContextPlugin } from '../../src/plugin.ts'
import { FakeFileSystem } from './fake-fs.ts'

/** A session log with a visible surface. */
export class FakeSession implements SessionView {
  readonly header: SessionHeader
  readonly events: SessionEvent[] = []
  surface: number[] = []
  replaceGeneration = 0
  publish: ((session: FakeSession, event: SessionEvent) => void) | undefined

  constructor(cwd: string, events: readonly SessionEvent[] = [], id: string = randomUUID()) {
    this.header = { type: 'session', version: 1, id, createdAt: new Date(0).toISOString(), cwd, delegationDepth: 0 }
    for (const event of events) this.#commit(event)
  }

  #commit(event: SessionEvent): void {
    this.events.push(event)
    const op = event.surfaceOp
    if (op === 'append') this.surface = [...this.surface, event.seq]
    else if (op !== undefined) {
      this.surface = [...this.surface.slice(0, op.start), event.seq, ...this.surface.slice(op.end)]
      this.replaceGeneration += 1
    }
  }

  eventBySeq(seq: number): SessionEvent | undefined {
    return this.events.find((event) => event.seq === seq)
  }

  append(type: string, data: unknown, surfaceOp?: SurfaceOp, sourceEventSeqs?: number[]): SessionEvent {
    const event: SessionEvent = { type, seq: (this.events.at(-1)?.seq ?? 0) + 1, time: new Date(0).toISOString(), data, ...(surfaceOp === undefined ? {} : { surfaceOp }), ...(sourceEventSeqs === undefined ? {} : { sourceEventSeqs }) }
    this.#commit(event)
    this.publish?.(this, event)
    return event
  }
}

class FakeInbox implements InboxMutations {
  nextStep: UserMessage[] = []
  nextTurn: UserMessage[] = []
  constructor(readonly session: FakeSession) {}
  get hasPending(): boolean {
    return this.nextStep.length > 0 || this.nextTurn.length > 0
  }
  #queue(target: InboxTarget): UserMessage[] {
    return target === 'next-step' ? this.nextStep : this.nextTurn
  }
  append(target: InboxTarget, item: UserMessage): Promise<void> {
    this.session.append('agent/inbox/spliced', { target, start: -1, removedIds: [], inserted: [item] })
    this.#queue(target).push(item)
    return Promise.resolve()
  }
  prepend(target: InboxTarget, item: UserMessage): Promise<void> {
    this.session.append('agent/inbox/spliced', { target, start: 0, removedIds: [], inserted: [item] })
    this.#queue(target).unshift(item)
    return Promise.resolve()
  }
  remove(id: string): Promise<boolean> {
    for (const target of ['next-step', 'next-turn'] as const) {
      const queue = this.#queue(target)
      const index = queue.findIndex((m) => m.id === id)
      if (index >= 0) {
        this.session.append('agent/inbox/spliced', { target, start: 0, removedIds: [id], inserted: [], outcome: 'canceled' })
        queue.splice(index, 1)
        return Promise.resolve(true)
      }
    }
    return Promise.resolve(false)
  }
  claim(withTurnItem: boolean): UserMessage[] {
    const turnItem = withTurnItem ? this.nextTurn.shift() : undefined
    const stepItems = this.nextStep.splice(0)
    return turnItem === undefined ? stepItems : [turnItem, ...stepItems]
  }
}

/** One tool result a step produces. */
export interface ToolSpec {
  readonly name?: string
  /** Absolute paths the tool touched successfully, and how (`touchKind`, default `read`). */
  readonly touched?: readonly string[]
  readonly touchKind?: 'read' | 'write' | 'edit'
  readonly isError?: boolean
  /** An outer post-execute listener (registered before the plugin) blocks the result, dropping contexts. */
  readonly blockedByOuter?: boolean
  /** Like `blockedByOuter`, but the blocking listener forwards the additional contexts. */
  readonly blockedByOuterKeepingContexts?: boolean
  /** An inner listener (registered after the plugin) blocks the result. */
  readonly blockedByInner?: boolean
  /** Nested sub-dispatches (Code Mode) run inside this call. */
  readonly nested?: readonly ToolSpec[]
  /** Abort the tool signal before post-execute. */
  readonly aborted?: boolean
  /** What the tool does to the files while it runs (after pre-execute, before post-execute). */
  readonly effect?: () => void
  /** The tool's `meta` (the read tool's `sha256` of a whole-file read, for example). */
  readonly meta?: Readonly<Record<string, unknown>>
  /** An inner listener replaces the text the model sees. */
  readonly contentReplacedByInner?: boolean
  /** The pipeline refused the call before it ran (a permission guard): no effect, status `denied`. */
  readonly denied?: boolean
  /** A composite tool whose final outcome leaves out its sub-dispatches' contexts. */
  readonly dropNestedContexts?: boolean
}

/** What a step should do. */
export interface StepSpec {
  readonly prompt?: string
  readonly reject?: boolean
  readonly tools?: readonly ToolSpec[]
  /** Run the step's tools concurrently (parallel tool calls). */
  readonly parallelTools?: boolean
  /** Abort the step after its tools ran (its contexts are discarded). */
  readonly abortAfterTools?: boolean
  readonly signal?: AbortSignal
}

/** A live agent in the rig. */
export interface RigAgent {
  readonly handle: AgentHandle
  readonly session: FakeSession
  readonly inbox: FakeInbox
  turn: number
  step: number
  first: boolean
}

/** Options of a rig. */
export interface RigOptions {
  readonly files?: Readonly<Record<string, string | Uint8Array>>
  readonly config?: Partial<ConfigInput>
  readonly withFs?: boolean
  /** The fake filesystem reports `changedAtMs` from the rig clock at each mutation. */
  readonly timestamps?: boolean
}

/** The rig: a plugin host with the plugin mounted and a fake filesystem. */
export class Rig {
  readonly ctx = new Context()
  readonly fs: FakeFileSystem
  clock = 1_000_000
  readonly warnings: string[] = []
  /** Fiber of the mounted plugin. */
  pluginFiber: { dispose(): unknown } | undefined
  #outer: ((execution: ToolExecution) => 'drop' | 'keep' | undefined) | undefined
  #inner: ((execution: ToolExecution) => 'block' | 'replace' | undefined) | undefined

  constructor(readonly options: RigOptions = {}) {
    this.fs = new FakeFileSystem(options.files ?? {}, options.timestamps === true ? () => this.clock : undefined)
  }

  /** Mounts listeners and the plugin; call once. */
  async start(): Promise<this> {
    if (this.options.withFs !== false) this.ctx.provide('fs', this.fs)
    this.ctx.on('tools/post-execute', async (execution, _output, next) => {
      const decision = await next()
      const verdict = this.#outer?.(execution)
      if (verdict === 'drop') return { kind: 'block', feedback: 'blocked by policy' }
      if (verdict === 'keep') return { kind: 'block', feedback: 'blocked by policy', ...(decision.additionalContexts === undefined ? {} : { additionalContexts: decision.additionalContexts }) }
      return decision
    })
    await this.#mount(this.options.config)
    this.ctx.on('tools/post-execute', async (execution, _output, next) => {
      const decision = await next()
      const verdict = this.#inner?.(execution)
      if (verdict === 'block') return { kind: 'block', feedback: 'blocked inside' }
      return verdict === 'replace' ? { kind: 'accept', content: 'redacted' } : decision
    })
    return this
  }

  /** One plugin instance for the rig's life: a remount mounts the same instance again, as a host reconfiguring it in place does. */
  #plugin: ReturnType<typeof createWorkspaceContextPlugin> | undefined

  async #mount(overrides: Partial<ConfigInput> | undefined): Promise<void> {
    this.#plugin ??= createWorkspaceContextPlugin({ environment: { env: {}, home: '/home/user' }, now: () => this.clock, warn: (line) => this.warnings.push(line) })
    const plugin = this.#plugin
    const config: ConfigInput = { maxBytes: 65536, dshHome: '/home/user/.dsh', projectRootMarkers: ['.git'], ...overrides }
    this.pluginFiber = await this.ctx.plugin(plugin, config)
  }

  /**
   * Hot remount with other options (a reconfigured host): the plugin is disposed and mounted again
   * over the same filesystem. Its listeners then come after the rig's inner listener, so
   * `blockedByInner` is not meaningful after a remount.
   */
  async remount(config: Partial<ConfigInput>): Promise<void> {
    await this.pluginFiber?.dispose()
    await this.#mount({ ...this.options.config, ...config })
  }

  /** Starts an agent; `resume` continues an earlier session as a new loop instance. */
  agent(cwd: string, resume?: FakeSession): RigAgent {
    const session = resume === undefined ? new FakeSession(cwd) : new FakeSession(cwd, resume.events, resume.header.id)
    session.publish = (s, event) => void this.ctx.parallel('session/event', s, event)
    const inbox = new FakeInbox(session)
    const handle: AgentHandle = {
      id: session.header.id,
      cwd,
      session,
      inbox,
      delegationDepth: 0,
      inject: (m) => inbox.append('next-step', m),
      steer: (m) => inbox.append('next-step', m),
      followup: (m) => inbox.append('next-turn', m),
      compact: () => Promise.resolve(false),
    }
    const turn = session.events.filter((e) => e.type === 'turn/start').length
    return { handle, session, inbox, turn, step: 0, first: true }
  }

  /** Runs a pre-step with the given claimed messages; returns the decision. */
  async preStep(agent: RigAgent, claimed: UserMessage[], step: number, reject = false, signal = new AbortController().signal): Promise<PreStepDecision> {
    const first = agent.first
    agent.first = false
    return this.ctx.waterfall('agent/pre-step', { agent: agent.handle, messages: claimed, turn: agent.turn, step, firstOfInstance: first, signal }, () =>
      Promise.resolve<PreStepDecision>(reject ? { kind: 'reject' } : { kind: 'enter', messages: claimed }),
    )
  }

  async #runTool(agent: RigAgent, spec: ToolSpec, signal: AbortSignal, parent?: ToolExecution): Promise<ToolFinalOutcome & { callId: string }> {
    const controller = new AbortController()
    if (spec.aborted === true) controller.abort(new Error('tool aborted'))
    const execution: ToolExecution = { callId: randomUUID(), name: spec.name ?? 'read', arguments: {}, agent: agent.handle, signal: spec.aborted === true ? controller.signal : signal, token: Symbol('exec'), ...(parent === undefined ? {} : { parent: parent.token }) }
    await this.ctx.waterfall('tools/pre-execute', execution, () => Promise.resolve({ kind: 'allow' as const }))
    if (spec.denied === true) {
      const refused: ToolFinalOutcome = { isError: true, content: 'denied', touched: [], additionalContexts: [], status: 'denied' }
      await this.ctx.parallel('tools/result', execution, refused)
      return { ...refused, callId: execution.callId }
    }
    spec.effect?.()
    const deferred: UserMessage[] = []
    for (const nested of spec.nested ?? []) deferred.push(...(await this.#runTool(agent, nested, signal, execution)).additionalContexts)
    const output: ToolOutput = spec.isError === true ? { isError: true, content: 'failed' } : { content: 'ok', touched: (spec.touched ?? []).map((path) => ({ path, kind: spec.touchKind ?? 'read' })), ...(spec.meta === undefined ? {} : { meta: spec.meta }) }
    this.#outer = (e) => (e !== execution ? undefined : spec.blockedByOuter === true ? 'drop' : spec.blockedByOuterKeepingContexts === true ? 'keep' : undefined)
    this.#inner = (e) => (e !== execution ? undefined : spec.blockedByInner === true ? 'block' : spec.contentReplacedByInner === true ? 'replace' : undefined)
    const decision: PostExecuteDecision = await this.ctx.waterfall('tools/post-execute', execution, output, () => Promise.resolve<PostExecuteDecision>({ kind: 'accept' }))
    const contexts = [...(spec.dropNestedContexts === true ? [] : deferred), ...(decision.additionalContexts ?? [])]
    const blocked = decision.kind === 'block'
    const outcome: ToolFinalOutcome = {
      isError: blocked || spec.isError === true,
      content: blocked ? decision.feedback : (decision.content ?? 'ok'),
      touched: blocked || spec.isError === true ? [] : (output.isError === true ? [] : (output.touched ?? [])),
      additionalContexts: contexts,
      status: blocked ? 'blocked' : spec.isError === true ? 'failed' : 'ok',
    }
    await this.ctx.parallel('tools/result', execution, outcome)
    return { ...outcome, callId: execution.callId }
  }

  /** Runs one step; returns the entered batch (empty when nothing entered). */
  async step(agent: RigAgent, spec: StepSpec = {}): Promise<UserMessage[]> {
    const newTurn = spec.prompt !== undefined
    if (newTurn) {
      agent.turn += 1
      agent.step = 0
      agent.session.append('turn/start', { turn: agent.turn })
      await agent.inbox.append('next-turn', message(spec.prompt ?? '', { kind: 'user' }))
    }
    agent.step += 1
    const claimed = agent.inbox.claim(agent.step === 1)
    const signal = spec.signal ?? new AbortController().signal
    const decision = await this.preStep(agent, claimed, agent.step, spec.reject === true, signal)
    if (decision.kind === 'reject' || (decision.messages.length === 0 && agent.step === 1)) {
      agent.session.append('turn/end', { turn: agent.turn, reason: decision.kind === 'reject' ? 'blocked' : 'completed' })
      return []
    }
    agent.session.append('step/start', { turn: agent.turn, step: agent.step })
    for (const entered of decision.messages) agent.session.append('user/message', { message: entered, turn: agent.turn, step: agent.step }, 'append')
    const contexts: UserMessage[] = []
    const tools = spec.tools ?? []
    const outcomes = spec.parallelTools === true ? await Promise.all(tools.map((tool) => this.#runTool(agent, tool, signal))) : []
    for (const [index, tool] of tools.entries()) {
      const outcome = outcomes[index] ?? (await this.#runTool(agent, tool, signal))
      agent.session.append('tool/result', { turn: agent.turn, step: agent.step, message: { id: randomUUID(), role: 'tool', callId: outcome.callId, toolName: tool.name ?? 'read', isError: outcome.isError, content: [{ type: 'text', text: outcome.content }], source: { kind: 'tool' } } }, 'append')
      contexts.push(...outcome.additionalContexts)
    }
    if (spec.abortAfterTools === true) {
      agent.session.append('step/end', { turn: agent.turn, step: agent.step, aborted: true })
      return decision.messages.slice()
    }
    for (const context of contexts) agent.session.append('user/message', { message: context, turn: agent.turn, step: agent.step }, 'append')
    agent.session.append('step/end', { turn: agent.turn, step: agent.step })
    return [...decision.messages, ...contexts]
  }

  /** Compacts every visible node, except the last `keepLast`, into one checkpoint (surface replace). */
  compact(agent: RigAgent, keepLast = 0): void {
    const end = Math.max(0, agent.session.surface.length - keepLast)
    const seqs = agent.session.surface.slice(0, end)
    agent.session.append('user/message', { message: message('[checkpoint]', { kind: 'compaction', checkpointId: randomUUID(), summarizer: 'deterministic' }) }, { op: 'replace', start: 0, end }, seqs)
  }
}

/** A user message with `source`. */
export function message(text: string, source: UserMessage['source']): UserMessage {
  return { id: randomUUID(), role: 'user', content: [{ type: 'text', text }], source }
}

/** Visible user-message texts of a session, in order. */
export function visibleTexts(session: FakeSession): string[] {
  return session.surface.flatMap((seq) => {
    const item = userMessageOf(session.eventBySeq(seq))
    return item === undefined ? [] : [item.content.map((block) => block.text).join('')]
  })
}
