/**
 * What Ctrl-C, Esc and Ctrl-D mean at a given moment, as a pure decision. Ctrl-C cancels a running
 * step (never a step toward exiting), else clears a half-typed input, else arms the exit, and a
 * second Ctrl-C within {@link exitWindowMs} at an idle empty prompt exits. Esc clears the input,
 * else cancels; at an idle empty prompt a second Esc within {@link rewindWindowMs} of the first
 * opens the rewind picker. Ctrl-D at an empty prompt exits. Any other key disarms both.
 */

/** Exit code after two Ctrl-C (128 + SIGINT, as the process would end on the signal). */
export const interruptExitCode = 130

/** How long a first Ctrl-C at an idle empty prompt arms the second one. */
export const exitWindowMs = 2000

/** How long a first Esc at an idle empty prompt waits for the second that opens the rewind picker. */
export const rewindWindowMs = 700

/** A key the policy decides. `other` is any key that reached the input. */
export type PolicyKey = 'ctrl-c' | 'escape' | 'ctrl-d' | 'other'

/** The moment the key arrives. */
export interface PolicyState {
  /** A prompt or command runs. */
  readonly running: boolean
  /** The input line is empty. */
  readonly inputEmpty: boolean
  /** When a first Ctrl-C armed the exit (milliseconds), if it did. */
  readonly armedAt?: number
  /** When a first Esc at an idle empty prompt armed the rewind picker, if it did. */
  readonly escapedAt?: number
}

/** What to do; `pass` hands the key to the input unchanged. */
export type PolicyAction = 'cancel' | 'clear-input' | 'arm-exit' | 'exit' | 'arm-rewind' | 'open-rewind' | 'pass' | 'none'

/** The decision and the new arming time. */
export interface PolicyDecision {
  readonly action: PolicyAction
  readonly armedAt?: number
  readonly escapedAt?: number
}

/** Decides one key. */
export function decideKey(key: PolicyKey, state: PolicyState, now: number): PolicyDecision {
  switch (key) {
    case 'ctrl-c':
      if (state.running) return { action: 'cancel' }
      if (!state.inputEmpty) return { action: 'clear-input' }
      if (state.armedAt !== undefined && now - state.armedAt <= exitWindowMs) return { action: 'exit' }
      return { action: 'arm-exit', armedAt: now }
    case 'escape':
      if (!state.inputEmpty) return { action: 'clear-input' }
      if (state.running) return { action: 'cancel' }
      if (state.escapedAt !== undefined && now - state.escapedAt <= rewindWindowMs) return { action: 'open-rewind' }
      return { action: 'arm-rewind', escapedAt: now }
    case 'ctrl-d':
      return { action: state.inputEmpty ? 'exit' : 'pass' }
    case 'other':
      return { action: 'pass' }
    default: {
      const unreachable: never = key
      throw new Error(`unknown key ${String(unreachable)}`)
    }
  }
}
