/**
 * How a finished `bash` call ended, read from the footer its result ends with (`[Exit code: 3]`,
 * `[Terminated by signal SIGKILL]`): the exit status and how many lines it printed, for the
 * one-line summary a tool row collapses to once the live output is gone.
 */

/** The end of one `bash` run. */
export interface BashOutcome {
  /** `exit 0`, `exit 3` or `signal SIGKILL`. */
  readonly status: string
  /** True for exit 0. */
  readonly ok: boolean
  /** Lines of output before the footer (0 when it printed nothing). */
  readonly lines: number
}

const footer = /\n*\[(?:Exit code: (\d+)|Terminated by signal (\S+))\]$/

/** The outcome of a `bash` result, or undefined for a result without the footer (an error, a refusal). */
export function bashOutcome(result: string): BashOutcome | undefined {
  const text = result.trimEnd()
  const match = footer.exec(text)
  if (match === null) return undefined
  const output = text.slice(0, match.index).replace(/\n+$/, '')
  const lines = output === '' || output === '(no output)' ? 0 : output.split('\n').length
  if (match[1] !== undefined) return { status: `exit ${match[1]}`, ok: match[1] === '0', lines }
  return { status: `signal ${match[2] ?? 'unknown'}`, ok: false, lines }
}
