/**
 * `agent/turn-stopping` under strict on-topic mode: judges the final answer against the
 * instruction the anchor quotes and, when it is off-topic, keeps the turn going with one
 * correction. One correction per turn; every failure of the judge lets the turn end.
 */
import type { TurnStoppingDecision, TurnStoppingPayload } from '@dsh/contracts'
import { errorMessage } from '@dsh/runtime'
import { anchorReach, type GuardCore } from './guard-core.ts'
import { noticeMessage } from './notice-delivery.ts'
import { offTopicCorrection } from './notice-texts.ts'
import { JUDGE_SYSTEM_PROMPT, judgeQuestion, parseVerdict } from './strict-judge.ts'

/** Judges a stopping turn; a `continue` decision carries the correction. */
export async function judgeTurn(core: GuardCore, payload: TurnStoppingPayload): Promise<TurnStoppingDecision | undefined> {
  const judge = core.judge
  if (judge === undefined || !core.switches.get().strictOnTopic) return undefined
  const state = core.states.of(payload.agent.session)
  const config = core.config()
  if (!anchorReach(state.header, config) || state.turn.corrections > 0 || payload.finalText.trim() === '') return undefined
  const instruction = state.anchor.current(payload.agent.session.events)
  if (instruction === undefined) return undefined
  let reply: string
  try {
    reply = await judge({ system: JUDGE_SYSTEM_PROMPT, user: judgeQuestion(instruction, payload.finalText), signal: payload.signal })
  } catch (error) {
    // Fail-open: a judge that cannot answer must not hold the turn.
    core.counters.add('judgeFailed')
    core.counters.note('lastJudge', { turn: payload.turn, failed: errorMessage(error) })
    return undefined
  }
  const verdict = parseVerdict(reply)
  core.counters.note('lastJudge', { turn: payload.turn, ...verdict })
  if (verdict.onTopic) {
    core.counters.add('judgeOnTopic')
    return undefined
  }
  core.counters.add('judgeOffTopic')
  core.counters.add('judgeSteered')
  state.turn.corrections += 1
  return { kind: 'continue', messages: [noticeMessage('judge', offTopicCorrection(verdict.reason))] }
}
