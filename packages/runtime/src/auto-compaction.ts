/**
 * Automatic compaction: before a step, when the estimated request size passes a share of the
 * model's context window, history before the current turn becomes a checkpoint. The summary is
 * model-written when allowed, with the deterministic summary as the fallback — except when the
 * summary call failed because the model server cannot be reached (`MODEL_NETWORK`, after the
 * provider's own retries): then the step fails with that error at once, so a user action spends
 * one retry budget, not one for the summary and another for the step. The latest prompt is quoted
 * in the checkpoint up to a tenth of the context window (about four characters a token).
 */
import type { ChatRequestBody, ModelProvider } from '@dsh/contracts'
import { compactSession, planCompaction } from './compaction.ts'
import { isAbortError, errorMessage } from './errors.ts'
import { summarizeWithModel } from './model-summary.ts'
import type { Session } from './session.ts'

/** Automatic compaction settings. */
export interface AutoCompactSettings {
  /** Share of the context window (0–1] that triggers compaction. */
  readonly share: number
  /** Ask the model for the summary (else the deterministic one). */
  readonly useModel: boolean
}

/** Share of the context window the checkpoint may spend on quoting the latest prompt. */
const KEPT_PROMPT_SHARE = 0.1

/** True for a provider failure that means the server cannot be reached (its retries are spent). */
const unreachable = (error: unknown): boolean => error instanceof Error && 'code' in error && error.code === 'MODEL_NETWORK'

/** Smallest share of the request a compaction must replace to be worth doing. */
const MIN_SHARE_FREED = 0.25

/** Rough token estimate of a request body: four characters of its JSON per token. */
export function estimateTokens(body: ChatRequestBody): number {
  return tokensOfLength(JSON.stringify(body).length)
}

const tokensOfLength = (jsonLength: number): number => Math.ceil(jsonLength / 4)

/** Compacts when the estimate passes the threshold; returns true when it compacted. */
export async function maybeAutoCompact(options: {
  readonly session: Session
  readonly provider: ModelProvider
  /** Length of the JSON of the request the step would send now (`requestJsonLength`). */
  readonly jsonLength: number
  readonly settings: AutoCompactSettings
  readonly signal: AbortSignal
  readonly log: (line: string) => void
  /** Like `log`, for a line that should be shown once per agent. */
  readonly notice: (line: string) => void
  /** Receives the summary call's request body (the request log). */
  readonly onRequest?: ((body: ChatRequestBody) => void) | undefined
  /** The API refused the request as longer than its context: compact whatever can be, whatever the estimate says. */
  readonly overflow?: boolean | undefined
  /** Runs once the compaction is decided, before the summary (`agent/pre-compact`); a reason it returns is reported, not obeyed. */
  readonly beforeCompact?: (() => Promise<string | undefined>) | undefined
}): Promise<boolean> {
  const threshold = options.settings.share * options.provider.contextWindow
  const bodyLength = options.jsonLength
  const estimate = tokensOfLength(bodyLength)
  const overflow = options.overflow === true
  if (estimate <= threshold && !overflow) return false
  // Earlier turns go first; a single long turn compacts its completed steps instead.
  const plan = planCompaction(options.session) ?? planCompaction(options.session, { scope: 'completed-steps' })
  // Not worth a checkpoint when it would free little: the fixed part (system prompt, tools, the
  // prompt, the latest step) is what fills the window, and compacting every step would only churn.
  if (overflow && plan === undefined) return false
  if (plan === undefined || (!overflow && JSON.stringify(plan.messages).length < MIN_SHARE_FREED * bodyLength)) {
    options.notice(`automatic compaction: the request passed ${Math.round(options.settings.share * 100)}% of the ${options.provider.contextWindow}-token window, but compacting now would free too little; continuing without it`)
    return false
  }
  // Automatic compaction cannot be stopped: without it the next request does not fit.
  const objection = await options.beforeCompact?.()
  if (objection !== undefined) options.log(`automatic compaction goes on although a PreCompact hook asked to stop it (automatic compaction cannot be stopped): ${objection}`)
  let summary: string | undefined
  if (options.settings.useModel) {
    try {
      summary = await summarizeWithModel(options.provider, plan.messages, options.signal, { onRequest: options.onRequest })
    } catch (error) {
      if (isAbortError(error) || options.signal.aborted || unreachable(error)) throw error
      // A failed summary call must not stop the turn: fall back to the deterministic summary.
      options.log(`automatic compaction: model summary failed (${errorMessage(error)}); using the deterministic summary`)
    }
  }
  const keptPromptMaxChars = Math.max(1000, Math.floor(options.provider.contextWindow * KEPT_PROMPT_SHARE * 4))
  const compacted = compactSession(options.session, { plan, keptPromptMaxChars, ...(summary === undefined ? {} : { summary, summarizer: 'model' as const }) })
  if (compacted && overflow) options.log('automatic compaction: the model refused the request as longer than its context; compacted, retrying once')
  else if (compacted) options.log(`automatic compaction: about ${estimate} tokens passed ${Math.round(options.settings.share * 100)}% of the ${options.provider.contextWindow}-token window`)
  return compacted
}
