/**
 * Interim approval rule of `dsh acp` until the permission policy (issue 12) lands: a
 * `tools/pre-execute` guard turns an `allow` verdict for `bash` and `run_code` into `ask`, so the
 * editor is asked before either runs (it calls `next()` first and only ever tightens). A snippet's
 * nested calls go through the pipeline again, so a nested `bash` is asked about separately. The
 * policy's `ask` mode replaces this file; it has one call site (`agent-app.ts`).
 */
import type { Context } from '@deepseek-ai/cordis'
import type { PreExecuteVerdict, ToolExecution } from '@dsh/contracts'

/** Tools that run arbitrary code with the user's rights. */
const codeRunners = new Set(['bash', 'run_code'])

/** Registers the guard on the host; returns its disposer. */
export function guardCodeRunners(ctx: Context): () => boolean {
  return ctx.on('tools/pre-execute', async (execution: ToolExecution, next: () => Promise<PreExecuteVerdict>): Promise<PreExecuteVerdict> => {
    const verdict = await next()
    if (!codeRunners.has(execution.name) || verdict.kind !== 'allow') return verdict
    return { kind: 'ask', reason: `dsh acp asks before running ${execution.name}` }
  })
}
