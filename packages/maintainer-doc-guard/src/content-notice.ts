/**
 * The landing check: an `edit` whose new text holds fewer number runs than the text it replaces
 * is the visible trace of deleting a sentence that carried a number or a conclusion. A number run
 * is a digit sequence with optional `.` or `,` groups (`3`, `1,024`, `0.75`). One notice per
 * target and before → after pair per session.
 */

const NUMBER_RUN = /\d+(?:[.,]\d+)*/gu

/** How many number runs `text` holds. */
export function numberRuns(text: string): number {
  return text.match(NUMBER_RUN)?.length ?? 0
}

/** The counts when an edit's arguments delete numbers. */
export function deletedNumbers(args: unknown): { readonly before: number; readonly after: number } | undefined {
  if (typeof args !== 'object' || args === null) return undefined
  const oldText: unknown = Reflect.get(args, 'old_string')
  const newText: unknown = Reflect.get(args, 'new_string')
  if (typeof oldText !== 'string' || typeof newText !== 'string') return undefined
  const before = numberRuns(oldText)
  const after = numberRuns(newText)
  return after < before ? { before, after } : undefined
}
