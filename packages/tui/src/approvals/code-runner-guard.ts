/**
 * The chat's approval rule until the permission policy lands: a `tools/pre-execute` guard turns an
 * `allow` verdict for `bash` and `run_code` into `ask` (it calls `next()` first and only ever
 * tightens). A snippet's own nested calls go through the pipeline again, so a nested `bash` is
 * asked about separately (or covered by an earlier "always" answer).
 */
import type { Context } from '@deepseek-ai/cordis'
import type { PreExecuteVerdict, ToolExecution } from '@dsh/contracts'
import { codeRunners } from './permission-question.ts'

/** The approval mode shown in the banner and the status line. */
export function approvalModeLabel(autoApprove: boolean): string {
  return autoApprove ? 'auto-approve (--yes)' : 'ask before bash, run_code'
}

/** Registers the guard; returns its disposer. */
export function guardCodeRunners(ctx: Context): () => boolean {
  return ctx.on('tools/pre-execute', async (execution: ToolExecution, next: () => Promise<PreExecuteVerdict>): Promise<PreExecuteVerdict> => {
    const verdict = await next()
    if (!Object.hasOwn(codeRunners, execution.name) || verdict.kind !== 'allow') return verdict
    return { kind: 'ask', reason: `dsh chat asks before running ${execution.name}` }
  })
}
