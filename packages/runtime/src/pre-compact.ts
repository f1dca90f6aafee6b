/**
 * `agent/pre-compact`: tells listeners (the hooks plugin's PreCompact) that a compaction is about
 * to happen and lets them stop a manual one. A listener that throws is logged and counts as no
 * answer: compaction is housekeeping, not a guard.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { PreCompactPayload } from '@dsh/contracts'
import { errorMessage } from './errors.ts'

/** Fires the event; resolves with the reason a listener gave to stop, or undefined. */
export async function firePreCompact(ctx: Context, payload: PreCompactPayload, log: (line: string) => void): Promise<string | undefined> {
  try {
    const decision = await ctx.serial('agent/pre-compact', payload)
    return decision?.kind === 'block' ? decision.reason : undefined
  } catch (error) {
    // A failing listener must not stop compaction, nor fail the step that needs it.
    if (payload.signal.aborted) throw error
    log(`agent/pre-compact listener failed: ${errorMessage(error)}`)
    return undefined
  }
}
