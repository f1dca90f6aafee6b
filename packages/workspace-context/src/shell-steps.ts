/**
 * Decision D8: changes made by the shell are noticed at the next step. A step in which `bash` or
 * `run_code` ran (known from the tool pipeline's `tools/result`, never from the command text) marks
 * its session; the next entering pre-step re-checks every loaded scope and clears the mark. A call
 * that never ran (denied, invalid arguments, unknown tool) does not count; a failed, blocked or
 * cancelled one may have changed files and does.
 */
import type { SessionView, ToolExecution, ToolFinalOutcome } from '@dsh/contracts'

/** Tools that run arbitrary commands or code, and so may change any file. */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['bash', 'run_code'])

const NEVER_RAN: ReadonlySet<ToolFinalOutcome['status']> = new Set(['denied', 'invalid-arguments', 'unknown-tool'])

/** Sessions with a shell step not re-checked yet. */
export class ShellSteps {
  readonly #marked = new WeakSet<SessionView>()

  /** `tools/result`: marks the session when a shell tool ran. */
  settled(execution: ToolExecution, outcome: ToolFinalOutcome): void {
    const session = execution.agent?.session
    if (session !== undefined && SHELL_TOOLS.has(execution.name) && !NEVER_RAN.has(outcome.status)) this.#marked.add(session)
  }

  /** Whether a shell ran since the last re-check of `session`. */
  pending(session: SessionView): boolean {
    return this.#marked.has(session)
  }

  /** The loaded scopes of `session` were re-checked (or examined in full). */
  clear(session: SessionView): void {
    this.#marked.delete(session)
  }
}
