/**
 * Errors that map to the command line's exit codes: 2 for bad usage, 1 for failures.
 */

/** A failure to report as one line on stderr with a chosen exit code. */
export class CliError extends Error {
  readonly exitCode: 1 | 2

  constructor(message: string, exitCode: 1 | 2 = 1) {
    super(message)
    this.name = 'CliError'
    this.exitCode = exitCode
  }
}

/** A bad-usage error (exit code 2). */
export function usageError(message: string): CliError {
  return new CliError(message, 2)
}
