/**
 * How a dsh turn's end reads in ACP: a finished turn is `end_turn` (`max_tokens` when the provider
 * cut its last answer at the output limit, `refusal` when its content filter did; issue 22 F4), the step limit
 * `max_turn_requests`, a cancel `cancelled`, and a turn a guard blocked before the model was
 * called `refusal`. A failed turn has no stop reason: the prompt request fails with its message.
 */
import { RequestError, type StopReason } from '@agentclientprotocol/sdk'
import type { TurnResult } from '@dsh/runtime'

/** The stop reason of `result`; throws a JSON-RPC internal error for a failed turn. */
export function stopReasonOf(result: TurnResult): StopReason {
  switch (result.reason) {
    case 'completed':
      if (result.cut === 'length') return 'max_tokens'
      return result.cut === 'content-filter' ? 'refusal' : 'end_turn'
    case 'max-steps':
      return 'max_turn_requests'
    case 'cancelled':
      return 'cancelled'
    case 'blocked':
      return 'refusal'
    case 'error':
      throw new RequestError(-32603, `the turn failed: ${result.error ?? 'unknown error'}`)
    default: {
      const unreachable: never = result.reason
      throw new Error(`unknown turn end reason ${String(unreachable)}`)
    }
  }
}
