/**
 * Touches in one step share one examination of each directory. The record of a session holds,
 * for its open step (identified by the `step/start` event), directory → examination. A touch pass
 * reuses a recorded directory without any fs call and records what it examines, but only while
 * nothing in the step could have changed the workspace since the record was made:
 * - only touches by top-level read-only tools whose touched paths are all reads use the record; any
 *   other touch (a write or edit, a Code Mode sub-dispatch) drops it and examines everything;
 * - a tool that may change the workspace (anything outside {@link READ_ONLY_TOOLS}: `bash`,
 *   `run_code`, `write`, `edit`, a subagent, a plugin's tool) drops the record when it starts
 *   (`tools/pre-execute`) and again when its result arrives (`tools/result`), and suspends sharing
 *   while it runs (parallel tool calls);
 * - a step end drops it.
 * Dropping replaces the map, so a pass still running with the old one cannot leak into the next.
 * Changes made outside the agent during a step (an editor, another process) are noticed at the
 * first touch of a later step.
 */
import type { SessionView, ToolExecution, TouchedPath } from '@dsh/contracts'
import type { DirectoryExamination } from './directory-examiner.ts'
import { openStepSeq } from './pending-window.ts'

/** Tools that never change the workspace: their calls keep the step's record. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(['read', 'grep', 'glob'])

/** Directory key → examination, shared by the touch passes of one step. */
export type SharedExaminations = Map<string, DirectoryExamination>

/** The step record of one session. */
export class StepShare {
  #stepSeq: number | undefined
  #record: SharedExaminations = new Map()
  /** Executions in flight that may change the workspace. */
  readonly #mutating = new Set<symbol>()

  /**
   * The record a touch pass of `execution` may use and extend, or `undefined` (having dropped
   * the record when the touch itself may have changed something).
   */
  forTouch(session: SessionView, execution: ToolExecution, touches: readonly TouchedPath[]): SharedExaminations | undefined {
    const readOnly = execution.parent === undefined && READ_ONLY_TOOLS.has(execution.name) && touches.every((touch) => touch.kind === 'read')
    if (!readOnly || this.#mutating.size > 0) {
      this.drop()
      return undefined
    }
    const seq = openStepSeq(session)
    if (seq === undefined) return undefined
    if (seq !== this.#stepSeq) {
      this.#stepSeq = seq
      this.#record = new Map()
    }
    return this.#record
  }

  /** `tools/pre-execute`: a tool that may change the workspace suspends sharing until its result. */
  starting(execution: ToolExecution): void {
    if (READ_ONLY_TOOLS.has(execution.name)) return
    this.#mutating.add(execution.token)
    this.drop()
  }

  /** `tools/result`: the end of a tool that may have changed the workspace drops the record. */
  finished(execution: ToolExecution): void {
    if (READ_ONLY_TOOLS.has(execution.name)) return
    this.#mutating.delete(execution.token)
    this.drop()
  }

  /** A step or turn ended: nothing carries over (a tool whose result never came is forgotten). */
  stepEnded(): void {
    this.#mutating.clear()
    this.drop()
  }

  /** Forgets every recorded examination. */
  drop(): void {
    this.#stepSeq = undefined
    this.#record = new Map()
  }
}
