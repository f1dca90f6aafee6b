/**
 * Interim approval rule of the web host until the permission policy (issue 12) lands: a
 * `tools/pre-execute` guard turns an `allow` verdict for `bash` and `run_code` into `ask` (it calls
 * `next()` first and only ever tightens), so the page is asked before code runs. One call site:
 * `startWebHost`. Remove this file when the policy decides instead.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { PreExecuteVerdict, ToolExecution } from '@dsh/contracts'

const codeRunners = new Set(['bash', 'run_code'])

/** Registers the guard; returns its disposer. */
export function guardCodeRunnersForWeb(ctx: Context): () => boolean {
  return ctx.on('tools/pre-execute', async (execution: ToolExecution, next: () => Promise<PreExecuteVerdict>): Promise<PreExecuteVerdict> => {
    const verdict = await next()
    if (!codeRunners.has(execution.name) || verdict.kind !== 'allow') return verdict
    return { kind: 'ask', reason: `dsh web asks before running ${execution.name}` }
  })
}
