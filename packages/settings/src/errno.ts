/** Reads the `code` of a Node system error (`ENOENT`, `EACCES`, ...) without trusting its shape. */

/** The error's string `code`, or undefined when it has none. */
export function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined
}
