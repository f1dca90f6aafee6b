/**
 * The hooks plugin: runs the configured hook commands on the kernel's events and turns what they
 * say into the kernel's own verdicts, which only ever tighten.
 * - `tools/pre-execute`, `tools/post-execute` → PreToolUse, PostToolUse(Failure) (tool-listeners.ts).
 * - `agent/pre-step` → SessionStart (first step of a loop instance) and UserPromptSubmit (first step
 *   of a turn with a typed prompt): plain stdout and `additionalContext` join the batch; a block
 *   rejects the turn (`blocked`) with the reason on the diagnostics sink.
 * - `agent/turn-stopping` → Stop / SubagentStop: a block keeps the turn going with the reason as
 *   the next message, at most `maxStopContinues` times per turn. The session's observer runs
 *   (InstructionsLoaded, RootChanged) are waited for first, so they are recorded within the turn.
 * - `agent/pre-compact` → PreCompact (`trigger` auto / manual): a block stops a manual compaction;
 *   an automatic one goes on (the runtime says so).
 * - `session/event` → InstructionsLoaded (an instruction delivery; observe only).
 * - the `workspaceRoots` service's changes → RootChanged (observe only; root-listener.ts).
 * - SessionEnd runs when a front end calls the `hooks` service's `sessionEnd` (`dsh run` before it
 *   exits; `dsh chat`, `dsh acp` and `dsh web` when they leave or close a session and when they end).
 * Every run is recorded in the session log as `hooks/run`, every decision as `hooks/decision`.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { AgentHandle, PreStepDecision, SessionView, UserMessage } from '@dsh/contracts'
import { createUserMessage, errorMessage } from '@dsh/runtime'
import { z } from 'zod'
import { untrustedHookLines } from './untrusted-notice.ts'
import { loadHookSet, runnable, type HookSet } from './hook-set.ts'
import { createHookRunner, type HookTarget } from './hook-runner.ts'
import type { HookEventName } from './hook-types.ts'
import { followRoots } from './root-listener.ts'
import { listenToTools } from './tool-listeners.ts'
import { claudeToolName } from './tool-names.ts'

/** What front ends call (`ctx.get('hooks')`, present while the plugin is mounted). */
export interface HooksService {
  /**
   * Runs the SessionEnd hooks of a session (before the front end closes it, or for a session no
   * agent holds any more: its id and cwd), after its observer runs; never rejects.
   */
  sessionEnd(target: HookTarget, reason: string): Promise<void>
  /**
   * Runs the Notification hooks whose matcher fits `type` (`idle_prompt`: the prompt has waited
   * for the person after a turn), in the background; never throws.
   */
  notify(target: HookTarget, type: string, message: string): void
  /** The hooks as last read (runnable or not: `dsh hooks list`'s rows, the chat's `/hooks`). */
  current(): HookSet
  /**
   * Reads every source again (after the project's files were trusted, or changed) and returns the
   * new set; the hooks in force change from the next event on. A problem line already reported is
   * not reported again.
   */
  reload(): HookSet
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

function contextMessage(text: string): UserMessage {
  return createUserMessage({ text, source: { kind: 'plugin', plugin: 'hooks', form: 'notice' } })
}

function apply(ctx: Context, options: HooksPluginOptions): void {
  let settingsSection: unknown
  // Each problem is reported once, however often the sources are read again.
  const reported = new Set<string>()
  let set: HookSet = load()
  function load(): HookSet {
    const next = loadHookSet({ cwd: options.cwd, dshHome: options.dshHome, config: options.config, settingsSection })
    // A project's untrusted hooks are named once too: listed but not run is not the same as absent.
    for (const problem of [...next.problems, ...untrustedHookLines(next)]) {
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

  const runner = createHookRunner({
    ...options,
    // What an `async` hook said reaches the session at its next step, as Claude Code delivers it on the next turn.
    late: (target, event, texts) => {
      const undelivered = (error: unknown): void => options.warn(`warning: hooks: a background ${event} hook's output could not be delivered: ${errorMessage(error)}`)
      for (const text of texts) {
        try {
          target.inject?.(contextMessage(`${event} hook (run in the background): ${text}`)).catch(undelivered)
        } catch (error) {
          // The session was closed meanwhile (inject refuses at once): said, not thrown into the hook's end.
          undelivered(error)
        }
      }
    },
  })
  ctx.effect(() => () => runner.close(), 'hooks.background')
  const entries = (event: HookEventName) => runnable(set, event)
  /** Runs the Notification hooks whose matcher fits `type` (observe only). */
  const notify = (target: HookTarget, type: string, message: string): void => {
    const matching = entries('Notification').filter((entry) => entry.pattern === undefined || entry.pattern.test(type))
    if (matching.length > 0) runner.observe('Notification', target, { message, notification_type: type }, matching)
  }
  // The agent of each live session seen, so observer runs (InstructionsLoaded) are recorded in its log.
  const agents = new WeakMap<SessionView, AgentHandle>()
  const roots = followRoots(ctx, runner, () => entries('RootChanged'))
  ctx.effect(() => () => roots.dispose(), 'hooks.roots')
  const stopContinues = new Map<string, number>()

  listenToTools(ctx, { runner, entries, contextMessage, cwd: options.cwd })

  ctx.on('agent/pre-step', async (payload, next): Promise<PreStepDecision> => {
    agents.set(payload.agent.session, payload.agent)
    roots.follow(payload.agent)
    const decision = await next()
    if (decision.kind === 'reject') return decision
    const contexts: string[] = []
    if (payload.firstOfInstance) {
      const start = entries('SessionStart')
      if (start.length > 0) {
        const resumed = payload.agent.session.events.some((event) => event.type === 'turn/end')
        contexts.push(...(await runner.run('SessionStart', payload.agent, { source: resumed ? 'resume' : 'startup' }, start, payload.signal)).contexts)
      }
    }
    const prompt = payload.step === 1 ? payload.messages.find((message) => message.source.kind === 'user') : undefined
    const submit = entries('UserPromptSubmit')
    if (prompt !== undefined && submit.length > 0) {
      const verdict = await runner.run('UserPromptSubmit', payload.agent, { prompt: prompt.content.map((block) => block.text).join('\n') }, submit, payload.signal)
      if (verdict.block !== undefined) {
        runner.decision(payload.agent, { event: 'UserPromptSubmit', decision: 'block', reason: verdict.block })
        options.warn(`a UserPromptSubmit hook blocked the prompt: ${verdict.block}`)
        return { kind: 'reject', reason: verdict.block }
      }
      contexts.push(...verdict.contexts)
    }
    if (contexts.length === 0) return decision
    runner.decision(payload.agent, { event: payload.step === 1 && prompt !== undefined ? 'UserPromptSubmit' : 'SessionStart', decision: 'context' })
    return { kind: 'enter', messages: [...decision.messages, ...contexts.map((text) => contextMessage(`Hook context: ${text}`))] }
  })

  ctx.on('agent/turn-stopping', async (payload) => {
    await runner.settle(payload.agent.id)
    const event = payload.agent.delegationDepth > 0 ? 'SubagentStop' : 'Stop'
    const stop = entries(event)
    if (stop.length === 0) return undefined
    const key = `${payload.agent.id}:${payload.turn}`
    const used = stopContinues.get(key) ?? 0
    if (used >= set.maxStopContinues) {
      if (used > 0) options.warn(`${event} hooks kept the turn going ${used} times (hooks.maxStopContinues: ${set.maxStopContinues}); the turn ends now`)
      return undefined
    }
    const verdict = await runner.run(event, payload.agent, { stop_hook_active: used > 0, last_assistant_message: payload.finalText }, stop, payload.signal)
    if (verdict.block === undefined) return undefined
    stopContinues.set(key, used + 1)
    runner.decision(payload.agent, { event, decision: 'continue', reason: verdict.block })
    return { kind: 'continue' as const, messages: [contextMessage(`${event} hook feedback (the turn goes on): ${verdict.block}`)] }
  })

  ctx.on('agent/pre-compact', async (payload) => {
    const compact = entries('PreCompact')
    if (compact.length === 0) return undefined
    const verdict = await runner.run('PreCompact', payload.agent, { trigger: payload.trigger, custom_instructions: payload.instructions }, compact, payload.signal)
    if (verdict.block === undefined) return undefined
    if (payload.trigger === 'manual') runner.decision(payload.agent, { event: 'PreCompact', decision: 'block', reason: verdict.block })
    return { kind: 'block' as const, reason: verdict.block }
  })

  const service: HooksService = {
    notify,
    current: () => set,
    reload: () => {
      set = load()
      return set
    },
    sessionEnd: async (target, reason) => {
      await runner.settle(target.id)
      // Background hooks of the session end (or are ended) while it is open, so their records land.
      await runner.drain(target.id)
      roots.unfollow(target.id)
      const end = entries('SessionEnd')
      if (end.length > 0) await runner.run('SessionEnd', target, { reason }, end)
    },
  }
  ctx.provide('hooks', service)

  // Notification (observe only): a permission question is about to wait for the person, who may be
  // elsewhere. The matcher is matched against the notification type, as in Claude Code.
  ctx.on('tools/asking', (execution) => {
    if (execution.agent !== undefined) notify(execution.agent, 'permission_prompt', `dsh needs your permission to use ${claudeToolName(execution.name)}`)
  })

  ctx.on('session/event', (session: SessionView, event) => {
    if (event.type !== 'user/message') return
    const message = instructionMessage(event.data)
    if (message?.source.kind !== 'workspace-instructions') return
    const loaded = entries('InstructionsLoaded')
    if (loaded.length === 0) return
    const paths = message.source.changes.filter((change) => change.action !== 'remove').map((change) => change.path)
    const target: HookTarget = agents.get(session) ?? { id: session.header.id, cwd: session.header.cwd }
    // Observe only: nothing waits for it here; the run is recorded once it ends (the session is mid-append now).
    runner.observe('InstructionsLoaded', target, { file_paths: paths, load_reason: message.source.baseline === true ? 'session_start' : 'nested_traversal' }, loaded)
  })
}

/** The message of a `user/message` payload. */
function instructionMessage(data: unknown): UserMessage | undefined {
  if (typeof data !== 'object' || data === null || !('message' in data)) return undefined
  const message: unknown = data.message
  // The session log's own user/message payload: the runtime wrote it with this shape.
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion
  return typeof message === 'object' && message !== null && 'source' in message ? (message as UserMessage) : undefined
}
