/**
 * Bounded text capture for snippet output: the shared head + tail accumulator of the core tools,
 * with Code Mode's own omission marker (the child process clips returned values the same way).
 */
import { CappedOutput } from '@dsh/tools'

/** The marker put where text was dropped. Keep identical to the one in `bootstrap-source.ts`. */
export function omissionMarker(omitted: number): string {
  return `\n[… ${omitted} characters omitted …]\n`
}

/** A capture of at most `limit` characters (half head, half tail). */
export function createOutputCapture(limit: number): CappedOutput {
  return new CappedOutput(limit, omissionMarker)
}

/** Keeps the first and last halves of `text` when it is longer than `max`, with a marker between. */
export function clipText(text: string, max: number): string {
  const capture = createOutputCapture(max)
  capture.append(text)
  return capture.text()
}
