/**
 * The cordis plugin: validates its config, then wires `agent/pre-step` (baseline delivery and
 * restoration), `tools/post-execute` (discovery after successful touches), `tools/pre-execute`
 * and `tools/result` (the step's shared examinations, the pending window) and `session/event`
 * (the pending window). The filesystem is read lazily with `ctx.get('fs')`, so a
 * composition without one boots and the plugin stays a no-op. Every listener is an effect of the
 * plugin's fiber and disappears when it is disposed.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { FileSystemPort, PostExecuteDecision, ToolExecution, ToolOutput, TouchedPath } from '@dsh/contracts'
import { Config, resolveConfig, type ConfigInput, type ResolveEnvironment } from './config.ts'
import { Engine } from './engine.ts'
import { ExaminedSettings } from './examined-settings.ts'
import { errorMessage } from './guards.ts'
import { PLUGIN_NAME } from './message.ts'
import type { ReadDelivery } from './reconcile.ts'
import { terminalLine } from './terminal-text.ts'
import { sessionTrustedRoots } from './trusted-roots.ts'

/** Options only programmatic compositions and tests pass (not part of the validated config). */
export interface WorkspaceContextHooks {
  /** Environment and OS home used to resolve `dshHome`. */
  readonly environment?: ResolveEnvironment
  /**
   * Wall clock in epoch milliseconds for the version memo (default `Date.now`). It is compared
   * with file timestamps, so it must be the wall clock, not a monotonic one; tests inject theirs.
   */
  readonly now?: () => number
  /** Extra trusted roots for the link policy when no `workspaceRoots` service is provided (which wins). */
  readonly extraTrustedRoots?: () => readonly string[]
  /**
   * Diagnostics sink, one line per call (terminal-safe): every warning of the plugin goes here —
   * a candidate that exists but cannot be used, and a pre-step or refresh that failed. Defaults to
   * the plugin's cordis logger.
   */
  readonly warn?: (message: string) => void
}

function touchedPaths(output: ToolOutput): TouchedPath[] {
  if (output.isError === true) return []
  return (output.touched ?? []).filter((touch) => typeof touch.path === 'string' && touch.path.trim() !== '')
}

/**
 * A top-level `read` whose output showed a whole file (the read tool's `meta.sha256`, set only
 * then), unless an inner listener replaced the text the model will see (decision D9).
 */
function readDelivery(execution: ToolExecution, output: ToolOutput, decision: PostExecuteDecision, touches: readonly TouchedPath[]): ReadDelivery | undefined {
  if (execution.name !== 'read' || execution.parent !== undefined || output.isError === true || decision.kind !== 'accept' || decision.content !== undefined) return undefined
  const digest = output.meta?.['sha256']
  const [touch] = touches
  if (typeof digest !== 'string' || touch === undefined || touches.length !== 1 || touch.kind !== 'read') return undefined
  return { callId: execution.callId, path: touch.path, digest }
}

function apply(ctx: Context, input: ConfigInput, hooks: WorkspaceContextHooks, examined: ExaminedSettings): void {
  const config = resolveConfig(input, hooks.environment)
  const logger = ctx.logger('workspace-context')
  const sink = hooks.warn ?? ((message: string) => logger.warn(message))
  const warn = (message: string): void => sink(terminalLine(message))
  const engine = new Engine({
    examined,
    config,
    plugin: PLUGIN_NAME,
    fs: (): FileSystemPort | undefined => ctx.get('fs'),
    now: hooks.now ?? Date.now,
    extraTrustedRoots: (session) => sessionTrustedRoots(ctx.get('workspaceRoots'), session, hooks.extraTrustedRoots ?? (() => [])),
    warn,
  })

  ctx.on('agent/pre-step', async (payload, next) => {
    const decision = await next()
    try {
      return await engine.preStep(payload, decision)
    } catch (error) {
      // Cancellation must reach the loop; any other failure only costs this step its
      // instructions (the next pre-step retries) and must never block the agent.
      if (payload.signal.aborted) throw payload.signal.reason ?? error
      warn(`workspace instructions could not be prepared: ${errorMessage(error)}`)
      return decision
    }
  })

  ctx.on('tools/post-execute', async (execution: ToolExecution, output: ToolOutput, next) => {
    const decision: PostExecuteDecision = await next()
    const touches = touchedPaths(output)
    if (decision.kind !== 'accept' || touches.length === 0 || execution.agent === undefined || execution.signal.aborted) return decision
    try {
      const message = await engine.touch(execution.agent, execution, touches, readDelivery(execution, output, decision, touches))
      if (message === undefined) return decision
      return { ...decision, additionalContexts: [...(decision.additionalContexts ?? []), message] }
    } catch (error) {
      // A cancelled or failed refresh leaves the tool result untouched; the next touch retries.
      if (!execution.signal.aborted) warn(`workspace instruction refresh failed: ${errorMessage(error)}`)
      return decision
    }
  })

  ctx.on('tools/pre-execute', (execution, next) => {
    // Only bookkeeping: a tool that may change files suspends the step's shared examinations.
    engine.starting(execution)
    return next()
  })

  ctx.on('tools/result', (execution, outcome) => {
    engine.settle(execution, outcome)
  })

  ctx.on('session/event', (session, event) => {
    engine.observe(session, event)
  })

  ctx.effect(() => () => engine.dispose(), 'workspace-context.state')
}

/** A plugin instance with programmatic hooks (tests, multi-root compositions). */
export function createWorkspaceContextPlugin(hooks: WorkspaceContextHooks = {}) {
  // Owned by this plugin instance so it survives a remount (which builds a new engine).
  const examined = new ExaminedSettings()
  return {
    name: 'workspace-context',
    Config,
    apply: (ctx: Context, config: ConfigInput) => apply(ctx, config, hooks, examined),
  }
}

/** The workspace-context plugin (cordis namespace form: `name`, `Config`, `apply`). */
export const workspaceContextPlugin = createWorkspaceContextPlugin()
