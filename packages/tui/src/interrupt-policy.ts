/**
 * What Ctrl-C, Esc and Ctrl-D mean at a given moment, as a pure decision. Ctrl-C cancels a running
 * step (never a step toward exiting), else clears a half-typed input, else arms the exit, and a
 * second Ctrl-C within {@link exitWindowMs} at an idle empty prompt exits. Esc clears the input,
 * else cancels. Ctrl-D at an empty prompt exits. Any other key disarms.
 */

/** Exit code after two Ctrl-C (128 + SIGINT, as the process would end on the signal). */
export const interruptExitCode = 130

/** How long a first Ctrl-C at an idle empty prompt arms the second one. */
export const exitWindowMs = 2000

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
}

/** What to do; `pass` hands the key to the input unchanged. */
export type PolicyAction = 'cancel' | 'clear-input' | 'arm-exit' | 'exit' | 'pass' | 'none'

/** The decision and the new arming time. */
export interface PolicyDecision {
  readonly action: PolicyAction
  readonly armedAt?: number
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
      return { action: state.running ? 'cancel' : 'none' }
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
