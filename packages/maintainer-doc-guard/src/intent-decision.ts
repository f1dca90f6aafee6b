/**
 * The staged judgement of an unexplained side-effecting call, as a pure function of the turn's
 * budgets: while fewer than `grace` unexplained calls happened this turn the call is nudged and
 * runs (or runs un-nudged when the turn's reminder budget `maxPerTurn` is spent), then up to
 * `maxBlocksPerTurn` calls are denied, then the gate gives up for the rest of the turn. With the
 * nudge stage disabled, `grace` is 0. Every outcome counts as a deviation.
 */

/** Budgets spent so far this turn. */
export interface IntentBudgets {
  readonly deviations: number
  readonly blocks: number
  /** Intent and drift reminders this turn. */
  readonly nudges: number
}

/** The limits in force. */
export interface IntentLimits {
  readonly nudgeEnabled: boolean
  readonly grace: number
  readonly maxPerTurn: number
  readonly maxBlocksPerTurn: number
}

/** What happens to the call. */
export type IntentStep = 'nudge' | 'nudge-capped' | 'deny' | 'give-up'

/** The step for one unexplained call and the budgets after it. */
export function nextIntentStep(budgets: IntentBudgets, limits: IntentLimits): { readonly step: IntentStep; readonly budgets: IntentBudgets } {
  const deviations = budgets.deviations + 1
  const grace = limits.nudgeEnabled ? limits.grace : 0
  if (budgets.deviations < grace) {
    if (budgets.nudges < limits.maxPerTurn) return { step: 'nudge', budgets: { ...budgets, deviations, nudges: budgets.nudges + 1 } }
    return { step: 'nudge-capped', budgets: { ...budgets, deviations } }
  }
  if (budgets.blocks < limits.maxBlocksPerTurn) return { step: 'deny', budgets: { ...budgets, deviations, blocks: budgets.blocks + 1 } }
  return { step: 'give-up', budgets: { ...budgets, deviations } }
}
