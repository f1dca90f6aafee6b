/**
 * The intent gate and the drift check, the turn-scoped half of `tools/pre-execute`.
 *
 * Intent: a side-effecting call (`intent.tools` or a destructive tool name) that the turn has
 * not explained goes through the staged judgement (nudge, deny, give up). It is the one guard
 * that stands down on a missing sensor: when no assistant message was seen this turn it disarms
 * for the rest of the turn (`intentDisarmed`). Dry runs spend the same budgets.
 *
 * Drift: once per turn, when `nudge.afterSteps` steps have run since the user last spoke, a
 * reminder asks which part of the request the step serves — even in a well-narrated turn.
 */
import type { AgentHandle } from '@dsh/contracts'
import type { Counters } from './counters.ts'
import { intentDenial, type Denial } from './gate-texts.ts'
import { nextIntentStep } from './intent-decision.ts'
import { isExplained, relationTerms } from './intent-relation.ts'
import { deliverNotice } from './notice-delivery.ts'
import { driftNudge, intentNudge } from './notice-texts.ts'
import type { ResolvedConfig } from './resolve-config.ts'
import type { SessionState } from './session-state.ts'
import { isDestructiveTool } from './tool-targets.ts'

/** What the turn-scoped stages need. */
export interface TurnStageContext {
  readonly agent: AgentHandle
  readonly state: SessionState
  readonly config: ResolvedConfig
  readonly counters: Counters
  readonly warn: (line: string) => void
  readonly tool: string
  readonly args: unknown
  readonly command: string | undefined
  /** True for a shell tool. */
  readonly shell: boolean
}

/** Judges the call's stated purpose; returns a denial or `undefined`. */
export async function intentStage(context: TurnStageContext): Promise<Denial | undefined> {
  const { config, state, counters, tool } = context
  if (!config.intent.enabled || !(config.intent.tools.includes(tool) || isDestructiveTool(tool)) || state.turn.disarmed) return undefined
  if (state.turn.assistantMessages === 0) {
    state.turn.disarmed = true
    counters.add('intentDisarmed')
    return undefined
  }
  if (isExplained(state.prose, state.proseChars, relationTerms(tool, context.args, context.command), config.intent.minChars)) return undefined
  const limits = { nudgeEnabled: config.nudge.enabled, grace: config.nudge.grace, maxPerTurn: config.nudge.maxPerTurn, maxBlocksPerTurn: config.intent.maxBlocksPerTurn }
  const { step, budgets } = nextIntentStep(state.turn, limits)
  Object.assign(state.turn, budgets)
  switch (step) {
    case 'nudge': {
      // Promise a denial only when the next unexplained call would really get one.
      const deniesNext = !config.intent.dryRun && nextIntentStep(state.turn, limits).step === 'deny'
      await deliverNotice({ agent: context.agent, tag: 'intent', text: intentNudge(tool, deniesNext), tool, dryRun: config.nudge.dryRun, counters, warn: context.warn })
      return undefined
    }
    case 'nudge-capped':
      counters.add('nudgeCapped')
      return undefined
    case 'deny':
      if (config.intent.dryRun) {
        counters.add('intentWouldBlock')
        return undefined
      }
      counters.add('intentBlocked')
      counters.note('lastIntentBlocked', { tool, turn: state.turn.turn, step: state.stepsSinceUser })
      return intentDenial(tool, context.shell)
    case 'give-up':
      counters.add('intentGaveUp')
      return undefined
    default: {
      const unreachable: never = step
      return unreachable
    }
  }
}

/** Sends the drift check when it is due. */
export async function driftStage(context: TurnStageContext): Promise<void> {
  const { config, state, counters } = context
  if (!config.nudge.enabled) return
  if (config.nudge.afterSteps === 0) return counters.add('driftSkipDisabled')
  if (state.turn.driftDone) return counters.add('driftSkipDone')
  if (state.stepsSinceUser < config.nudge.afterSteps) return counters.add('driftSkipEarly')
  if (state.turn.nudges >= config.nudge.maxPerTurn) return counters.add('driftSkipBudget')
  state.turn.driftDone = true
  state.turn.nudges += 1
  await deliverNotice({ agent: context.agent, tag: 'drift', text: driftNudge(state.stepsSinceUser), tool: context.tool, dryRun: config.nudge.dryRun, counters, warn: context.warn })
}
