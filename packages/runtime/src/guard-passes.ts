/**
 * The `tools/pre-execute` guards of one call, with a replacement of its arguments: when the verdict
 * carries `updatedArguments`, they are validated against the tool's schema (invalid: denied) and
 * every guard decides again on them (a second pass whose execution has `updatedFrom`), so the
 * permission policy judges what runs. The stricter verdict holds (deny over ask over allow); a
 * second replacement is ignored (logged). Same callId and token: the call is the same call.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { PreExecuteVerdict, ToolDefinition, ToolExecution } from '@dsh/contracts'
import type { ZodError } from 'zod'
import { deepFreeze } from './message-factory.ts'

/** What the guards decided, and on which execution and arguments the call runs. */
export type GuardPasses =
  | { readonly kind: 'deny'; readonly reason: string; readonly recovery?: string | undefined }
  | { readonly kind: 'allow' | 'ask'; readonly reason?: string | undefined; readonly execution: ToolExecution; readonly args: unknown }

/** Options of {@link runGuardPasses}. */
export interface GuardPassesOptions {
  readonly ctx: Context
  readonly tool: Pick<ToolDefinition, 'parameters'>
  readonly execution: ToolExecution
  /** The validated (unfrozen) arguments the tool gets unless a guard replaces them. */
  readonly args: unknown
  readonly log: (line: string) => void
}

/** Zod issues as one line. */
export function describeZodError(error: ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`).join('; ')
}

const pass = (ctx: Context, execution: ToolExecution): Promise<PreExecuteVerdict> => ctx.waterfall('tools/pre-execute', execution, () => Promise.resolve<PreExecuteVerdict>({ kind: 'allow' }))

/** Runs the guards (twice when one replaced the arguments). Throws what a guard threw. */
export async function runGuardPasses(options: GuardPassesOptions): Promise<GuardPasses> {
  const { execution } = options
  const first = await pass(options.ctx, execution)
  if (first.kind === 'deny') return first
  const update = first.updatedArguments
  if (update === undefined) return { kind: first.kind, reason: first.kind === 'ask' ? first.reason : undefined, execution, args: options.args }
  const validated = options.tool.parameters.safeParse(update.arguments)
  if (!validated.success) return { kind: 'deny', reason: `${update.by} replaced its arguments with ones the tool does not accept (${describeZodError(validated.error)})` }
  const updated: ToolExecution = Object.freeze({ ...execution, arguments: deepFreeze(structuredClone(validated.data)), updatedFrom: { arguments: execution.arguments, by: update.by } })
  const second = await pass(options.ctx, updated)
  if (second.kind === 'deny') return second
  if (second.updatedArguments !== undefined) options.log(`tools/pre-execute: a second replacement of the ${execution.name} call's arguments (${second.updatedArguments.by}) is ignored; it runs with the first (${update.by})`)
  if (second.kind === 'ask') return { kind: 'ask', reason: second.reason, execution: updated, args: validated.data }
  return { kind: first.kind, reason: first.kind === 'ask' ? first.reason : undefined, execution: updated, args: validated.data }
}
