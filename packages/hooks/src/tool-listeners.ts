/**
 * The hooks of tool calls on the kernel's pipeline:
 * - `tools/pre-execute` → PreToolUse, after the permission policy (`next()` first): a deny from
 *   the policy stands without running hooks; a hook can turn allow into deny or ask, never the
 *   reverse (its `allow` is ignored); a hook that times out or cannot start blocks. Its
 *   `updatedInput` becomes the verdict's `updatedArguments`: the pipeline validates it and runs the
 *   guards again on it (the second pass, `execution.updatedFrom`), where the hooks do not run again
 *   and the replacement is recorded as `hooks/input-updated`.
 * - `tools/post-execute` → PostToolUse / PostToolUseFailure: feedback (exit 2, `decision:
 *   "block"`) and `additionalContext` become context messages after the step's results.
 * A hook runs for a call when its matcher fits the tool name and its `if` rule, if any, matches the
 * call as a deny rule would (any simple command of a bash line; a path as written or resolved).
 */
import type { Context } from '@deepseek-ai/cordis'
import { denyingRule } from '@dsh/permissions'
import type { PostExecuteDecision, PreExecuteVerdict, ToolExecution, UserMessage } from '@dsh/contracts'
import type { HookEntry, HookEventName } from './hook-types.ts'
import type { HookRunner } from './hook-runner.ts'
import type { HookVerdict } from './hook-verdict.ts'
import { claudeToolInput } from './claude-tool-input.ts'
import { claudeToolName, matchesTool } from './tool-names.ts'

/** What the tool listeners need. */
export interface ToolListenerDeps {
  readonly runner: HookRunner
  /** The runnable hooks of `event` now (the set is hot reloaded). */
  readonly entries: (event: HookEventName) => readonly HookEntry[]
  readonly contextMessage: (text: string) => UserMessage
  /** Working directory of a call without an agent (its `if` paths are relative to it). */
  readonly cwd: string
}

/** The hooks of `event` for `execution`: the matcher fits the tool and the `if` rule, if any, the call. */
function hooksFor(deps: ToolListenerDeps, event: HookEventName, execution: ToolExecution): HookEntry[] {
  const call = { tool: execution.name, args: execution.arguments, cwd: execution.agent?.cwd ?? deps.cwd }
  return deps.entries(event).filter((entry) => matchesTool(entry.pattern, execution.name) && (entry.condition === undefined || denyingRule([entry.condition.rule], call) !== undefined))
}

/** The tool fields of a hook's stdin, in Claude Code's names (its file paths absolute: claude-tool-input.ts). */
function toolFields(execution: ToolExecution, cwd: string): Record<string, unknown> {
  return { tool_name: claudeToolName(execution.name), dsh_tool_name: execution.name, tool_input: claudeToolInput(execution.name, execution.arguments, execution.agent?.cwd ?? cwd), tool_use_id: execution.callId }
}

/** The verdict's `updatedArguments` for a hook's `updatedInput`. */
function updatedArguments(verdict: HookVerdict): { updatedArguments?: { arguments: unknown; by: string } } {
  return verdict.update === undefined ? {} : { updatedArguments: { arguments: verdict.update.input, by: verdict.update.by } }
}

/** Registers the PreToolUse and PostToolUse listeners on `ctx`. */
export function listenToTools(ctx: Context, deps: ToolListenerDeps): void {
  const { runner } = deps
  ctx.on('tools/pre-execute', async (execution: ToolExecution, next: () => Promise<PreExecuteVerdict>): Promise<PreExecuteVerdict> => {
    // The second pass on an input a hook replaced: the hooks ran already; the guards decide again.
    if (execution.updatedFrom !== undefined) {
      execution.agent?.recordEvent?.('hooks/input-updated', { callId: execution.callId, tool: execution.name, arguments: JSON.stringify(execution.arguments), by: execution.updatedFrom.by })
      return next()
    }
    const base = await next()
    if (base.kind === 'deny') return base
    const entries = hooksFor(deps, 'PreToolUse', execution)
    if (entries.length === 0) return base
    const verdict = await runner.run('PreToolUse', execution.agent, toolFields(execution, deps.cwd), entries, execution.signal)
    const call = { tool: execution.name, callId: execution.callId }
    if (verdict.block !== undefined) {
      runner.decision(execution.agent, { event: 'PreToolUse', decision: 'deny', ...call, reason: verdict.block })
      return { kind: 'deny', reason: `a PreToolUse hook blocked it: ${verdict.block}` }
    }
    if (verdict.ask !== undefined && base.kind === 'allow') {
      runner.decision(execution.agent, { event: 'PreToolUse', decision: 'ask', ...call, reason: verdict.ask })
      return { kind: 'ask', reason: `a PreToolUse hook asks for approval: ${verdict.ask}`, ...updatedArguments(verdict) }
    }
    return { ...base, ...updatedArguments(verdict) }
  })

  ctx.on('tools/post-execute', async (execution, output, next): Promise<PostExecuteDecision> => {
    const decision = await next()
    const event = output.isError === true ? 'PostToolUseFailure' : 'PostToolUse'
    const entries = hooksFor(deps, event, execution)
    if (entries.length === 0) return decision
    const response = output.isError === true ? { error: output.content } : { tool_response: { content: output.content, ...(output.meta === undefined ? {} : { meta: output.meta }) } }
    const verdict = await runner.run(event, execution.agent, { ...toolFields(execution, deps.cwd), ...response }, entries, execution.signal)
    const texts = [...(verdict.block === undefined ? [] : [`${event} hook feedback on the ${execution.name} call (${execution.callId}): ${verdict.block}`]), ...verdict.contexts.map((text) => `${event} hook context for the ${execution.name} call (${execution.callId}): ${text}`)]
    if (verdict.block !== undefined) runner.decision(execution.agent, { event, decision: 'block', tool: execution.name, callId: execution.callId, reason: verdict.block })
    if (texts.length === 0) return decision
    return { ...decision, additionalContexts: [...(decision.additionalContexts ?? []), ...texts.map(deps.contextMessage)] }
  })
}
