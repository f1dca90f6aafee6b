/**
 * The hooks plugin: runs the configured hook commands on the kernel's events and turns what they
 * say into the kernel's own verdicts, which only ever tighten.
 * - `tools/pre-execute` → PreToolUse: after the permission policy (`next()` first); a deny from
 *   the policy stands without running hooks, a hook can turn allow into deny or ask, never the
 *   reverse (its `allow` is ignored). A hook that times out or cannot start blocks.
 * - `tools/post-execute` → PostToolUse / PostToolUseFailure: feedback (exit 2, `decision:
 *   "block"`) and `additionalContext` become context messages after the step's results.
 * - `agent/pre-step` → SessionStart (first step of a loop instance) and UserPromptSubmit (first step
 *   of a turn with a typed prompt): plain stdout and `additionalContext` join the batch; a block
 *   rejects the turn (`blocked`) with the reason on the diagnostics sink.
 * - `agent/turn-stopping` → Stop / SubagentStop: a block keeps the turn going with the reason as
 *   the next message, at most `maxStopContinues` times per turn.
 * - `session/event` → InstructionsLoaded (an instruction delivery; observe only).
 * - SessionEnd runs when a front end calls the `hooks` service's `sessionEnd`: `dsh run` before it exits,
 *   `dsh chat` when it leaves a session (`clear` on /new, `other` on /resume, `prompt_input_exit` at the end).
 * Every run is recorded in the session log as `hooks/run`, every decision as `hooks/decision`.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { AgentHandle, PostExecuteDecision, PreExecuteVerdict, PreStepDecision, SessionView, ToolExecution, UserMessage } from '@dsh/contracts'
import { createUserMessage, errorMessage } from '@dsh/runtime'
import { join } from 'node:path'
import { z } from 'zod'
import { hookEnvironment } from './hook-env.ts'
import { loadHookSet, runnable, type HookSet } from './hook-set.ts'
import type { HookEntry, HookEventName, HookRun } from './hook-types.ts'
import { combineRuns, hookLabel, type HookVerdict } from './hook-verdict.ts'
import { runHook } from './run-hook.ts'
import { claudeToolName, matchesTool } from './tool-names.ts'

/** What front ends call (`ctx.get('hooks')`, present while the plugin is mounted). */
export interface HooksService {
  /** Runs the SessionEnd hooks of `agent`'s session (before the front end closes it); never rejects. */
  sessionEnd(agent: AgentHandle, reason: string): Promise<void>
}

declare module '@deepseek-ai/cordis' {
  interface Context {
    /** The hooks plugin's service; optional: read it with `ctx.get('hooks')`. */
    hooks: HooksService
  }
}

/** Options of {@link createHooksPlugin}. */
export interface HooksPluginOptions {
  /** The project directory whose `.dsh/` and `.claude/` files are read (the session's cwd). */
  readonly cwd: string
  readonly dshHome: string
  /** The config file and its `hooks` section. */
  readonly config?: { readonly file: string; readonly section: unknown } | undefined
  /** dsh's environment (hooks get it without the provider keys). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** More variables to remove from the hooks' environment (`model.apiKeyEnv`). */
  readonly secretNames?: readonly string[]
  /** The permission mode in force, for the hooks' stdin. */
  readonly permissionMode: string
  /** One line per problem or hook message. */
  readonly warn: (line: string) => void
}

const settingsSchema = z.record(z.string(), z.unknown())

/** Creates the plugin (cordis form). */
export function createHooksPlugin(options: HooksPluginOptions) {
  return { name: 'hooks', apply: (ctx: Context) => apply(ctx, options) }
}

function apply(ctx: Context, options: HooksPluginOptions): void {
  let settingsSection: unknown
  // Each problem is reported once, however often the sources are read again.
  const reported = new Set<string>()
  let set: HookSet = load()
  function load(): HookSet {
    const next = loadHookSet({ cwd: options.cwd, dshHome: options.dshHome, config: options.config, settingsSection })
    for (const problem of next.problems) {
      if (reported.has(problem)) continue
      reported.add(problem)
      options.warn(`warning: ${problem}`)
    }
    return next
  }
  ctx.inject(['settings'], (scoped) => {
    try {
      const scope = scoped.settings.register('hooks', settingsSchema)
      settingsSection = scope.get()
      set = load()
      scoped.effect(() => scope.watch((next) => {
        settingsSection = next
        set = load()
      }), 'hooks.settings')
    } catch (error) {
      // The namespace is taken or the file unusable: the other sources stay in force.
      options.warn(`warning: hooks: settings.yaml hooks are unavailable: ${errorMessage(error)}`)
    }
  })

  const stopContinues = new Map<string, number>()

  const run = async (event: HookEventName, agent: AgentHandle | undefined, extra: Record<string, unknown>, entries: readonly HookEntry[], signal?: AbortSignal): Promise<HookVerdict> => {
    const cwd = agent?.cwd ?? options.cwd
    const input = {
      session_id: agent?.id ?? '',
      transcript_path: agent === undefined ? '' : join(options.dshHome, 'sessions', `${agent.id}.jsonl`),
      cwd,
      permission_mode: options.permissionMode,
      hook_event_name: event,
      ...extra,
    }
    const env = hookEnvironment(options.env, options.secretNames ?? [], cwd)
    // The same command configured twice (two files) runs once.
    const unique = [...new Map(entries.map((entry) => [entry.command, entry])).values()]
    const runs = await Promise.all(unique.map((entry) => runHook({ entry, input, cwd, env, signal })))
    for (const done of runs) recordRun(agent, done)
    const verdict = combineRuns(event, runs)
    for (const message of verdict.messages) options.warn(message)
    return verdict
  }

  ctx.on('tools/pre-execute', async (execution: ToolExecution, next: () => Promise<PreExecuteVerdict>): Promise<PreExecuteVerdict> => {
    const base = await next()
    if (base.kind === 'deny') return base
    const entries = runnable(set, 'PreToolUse').filter((entry) => matchesTool(entry.pattern, execution.name))
    if (entries.length === 0) return base
    const verdict = await run('PreToolUse', execution.agent, toolFields(execution), entries, execution.signal)
    if (verdict.block !== undefined) {
      record(execution.agent, { event: 'PreToolUse', decision: 'deny', tool: execution.name, callId: execution.callId, reason: verdict.block })
      return { kind: 'deny', reason: `a PreToolUse hook blocked it: ${verdict.block}` }
    }
    if (verdict.ask !== undefined && base.kind === 'allow') {
      record(execution.agent, { event: 'PreToolUse', decision: 'ask', tool: execution.name, callId: execution.callId, reason: verdict.ask })
      return { kind: 'ask', reason: `a PreToolUse hook asks for approval: ${verdict.ask}` }
    }
    return base
  })

  ctx.on('tools/post-execute', async (execution, output, next): Promise<PostExecuteDecision> => {
    const decision = await next()
    const event = output.isError === true ? 'PostToolUseFailure' : 'PostToolUse'
    const entries = runnable(set, event).filter((entry) => matchesTool(entry.pattern, execution.name))
    if (entries.length === 0) return decision
    const response = output.isError === true ? { error: output.content } : { tool_response: { content: output.content, ...(output.meta === undefined ? {} : { meta: output.meta }) } }
    const verdict = await run(event, execution.agent, { ...toolFields(execution), ...response }, entries, execution.signal)
    const texts = [...(verdict.block === undefined ? [] : [`${event} hook feedback on the ${execution.name} call (${execution.callId}): ${verdict.block}`]), ...verdict.contexts.map((text) => `${event} hook context for the ${execution.name} call (${execution.callId}): ${text}`)]
    if (verdict.block !== undefined) record(execution.agent, { event, decision: 'block', tool: execution.name, callId: execution.callId, reason: verdict.block })
    if (texts.length === 0) return decision
    return { ...decision, additionalContexts: [...(decision.additionalContexts ?? []), ...texts.map(contextMessage)] }
  })

  ctx.on('agent/pre-step', async (payload, next): Promise<PreStepDecision> => {
    const decision = await next()
    if (decision.kind === 'reject') return decision
    const contexts: string[] = []
    if (payload.firstOfInstance) {
      const entries = runnable(set, 'SessionStart')
      if (entries.length > 0) {
        const resumed = payload.agent.session.events.some((event) => event.type === 'turn/end')
        contexts.push(...(await run('SessionStart', payload.agent, { source: resumed ? 'resume' : 'startup' }, entries, payload.signal)).contexts)
      }
    }
    const prompt = payload.step === 1 ? payload.messages.find((message) => message.source.kind === 'user') : undefined
    const entries = runnable(set, 'UserPromptSubmit')
    if (prompt !== undefined && entries.length > 0) {
      const verdict = await run('UserPromptSubmit', payload.agent, { prompt: prompt.content.map((block) => block.text).join('\n') }, entries, payload.signal)
      if (verdict.block !== undefined) {
        record(payload.agent, { event: 'UserPromptSubmit', decision: 'block', reason: verdict.block })
        options.warn(`a UserPromptSubmit hook blocked the prompt: ${verdict.block}`)
        return { kind: 'reject', reason: verdict.block }
      }
      contexts.push(...verdict.contexts)
    }
    if (contexts.length === 0) return decision
    record(payload.agent, { event: payload.step === 1 && prompt !== undefined ? 'UserPromptSubmit' : 'SessionStart', decision: 'context' })
    return { kind: 'enter', messages: [...decision.messages, ...contexts.map((text) => contextMessage(`Hook context: ${text}`))] }
  })

  ctx.on('agent/turn-stopping', async (payload) => {
    const event = payload.agent.delegationDepth > 0 ? 'SubagentStop' : 'Stop'
    const entries = runnable(set, event)
    if (entries.length === 0) return undefined
    const key = `${payload.agent.id}:${payload.turn}`
    const used = stopContinues.get(key) ?? 0
    if (used >= set.maxStopContinues) {
      if (used > 0) options.warn(`${event} hooks kept the turn going ${used} times (hooks.maxStopContinues: ${set.maxStopContinues}); the turn ends now`)
      return undefined
    }
    const verdict = await run(event, payload.agent, { stop_hook_active: used > 0, last_assistant_message: payload.finalText }, entries, payload.signal)
    if (verdict.block === undefined) return undefined
    stopContinues.set(key, used + 1)
    record(payload.agent, { event, decision: 'continue', reason: verdict.block })
    return { kind: 'continue' as const, messages: [contextMessage(`${event} hook feedback (the turn goes on): ${verdict.block}`)] }
  })

  const service: HooksService = {
    sessionEnd: async (agent, reason) => {
      const entries = runnable(set, 'SessionEnd')
      if (entries.length > 0) await run('SessionEnd', agent, { reason }, entries)
    },
  }
  ctx.provide('hooks', service)

  ctx.on('session/event', (session: SessionView, event) => {
    if (event.type !== 'user/message') return
    const message = instructionMessage(event.data)
    if (message?.source.kind !== 'workspace-instructions') return
    const entries = runnable(set, 'InstructionsLoaded')
    if (entries.length === 0) return
    const paths = message.source.changes.filter((change) => change.action !== 'remove').map((change) => change.path)
    const agent = { id: session.header.id, cwd: session.header.cwd } as const
    // Observe only: nothing waits for it; its runs are not recorded (the session is mid-append).
    void runObserver('InstructionsLoaded', agent, { file_paths: paths, load_reason: message.source.baseline === true ? 'session_start' : 'nested_traversal' }, entries)
  })

  const runObserver = async (event: HookEventName, agent: { readonly id: string; readonly cwd: string }, extra: Record<string, unknown>, entries: readonly HookEntry[]): Promise<void> => {
    const input = { session_id: agent.id, transcript_path: join(options.dshHome, 'sessions', `${agent.id}.jsonl`), cwd: agent.cwd, permission_mode: options.permissionMode, hook_event_name: event, ...extra }
    const env = hookEnvironment(options.env, options.secretNames ?? [], agent.cwd)
    const runs = await Promise.all(entries.map((entry) => runHook({ entry, input, cwd: agent.cwd, env })))
    for (const message of combineRuns(event, runs).messages) options.warn(message)
  }
}

/** The tool fields of a hook's stdin, in Claude Code's names. */
function toolFields(execution: ToolExecution): Record<string, unknown> {
  return { tool_name: claudeToolName(execution.name), dsh_tool_name: execution.name, tool_input: execution.arguments, tool_use_id: execution.callId }
}

/** The message of a `user/message` payload. */
function instructionMessage(data: unknown): UserMessage | undefined {
  if (typeof data !== 'object' || data === null || !('message' in data)) return undefined
  const message: unknown = data.message
  // The session log's own user/message payload: the runtime wrote it with this shape.
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion
  return typeof message === 'object' && message !== null && 'source' in message ? (message as UserMessage) : undefined
}

function contextMessage(text: string): UserMessage {
  return createUserMessage({ text, source: { kind: 'plugin', plugin: 'hooks', form: 'notice' } })
}

function recordRun(agent: AgentHandle | undefined, done: HookRun): void {
  agent?.recordEvent?.('hooks/run', {
    event: done.entry.event,
    command: done.entry.command,
    source: `${done.entry.source.file}: ${done.entry.where}`,
    outcome: done.outcome,
    exitCode: done.exitCode,
    ...(done.outcome === 'ok' ? {} : { detail: hookLabel(done) }),
  })
}

function record(agent: AgentHandle | undefined, data: Record<string, unknown>): void {
  agent?.recordEvent?.('hooks/decision', data)
}
