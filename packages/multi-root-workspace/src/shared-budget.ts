/**
 * The one byte budget shared by every additional root (seeds/002 decision 5). Sections arrive in
 * priority order — root by root, shallow directories before deep ones, discovery order within a
 * directory — and each takes what it needs from what is left:
 *
 * 1. a section that fits whole is kept whole;
 * 2. a new or changed file that does not fit is cut to what is left (at a UTF-8 boundary) when
 *    some of its text fits, else omitted; a cut uses up the budget;
 * 3. a retry (a file the model has only part of, unchanged since) is sent only whole.
 *
 * A section's size is the UTF-8 length of its escaped heading, a blank line and its escaped text.
 * Nothing else of the message (frame, intro, root headings, note, revocations, withdrawals, the
 * budget notice) is counted: those are never cut.
 */

/** One section offered to the budget. */
export interface BudgetSection {
  /** Heading as sent (escaped). */
  readonly heading: string
  /** Text before escaping. */
  readonly content: string
  /** Offered again only whole (the model has part of it already). */
  readonly wholeOnly: boolean
}

/** What the budget decided for one section (`content`: the kept prefix, before escaping). */
export type BudgetDecision = { readonly kind: 'whole' } | { readonly kind: 'cut'; readonly content: string } | { readonly kind: 'left-out' }

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8')

/** The longest prefix of `text` with at most `limit` UTF-8 bytes that does not split a character. */
export function prefixWithin(text: string, limit: number): string {
  const encoded = Buffer.from(text, 'utf8')
  if (encoded.length <= limit) return text
  let end = Math.max(0, limit)
  // A continuation byte (10xxxxxx) at the cut means the character started earlier: step back to its start.
  while (end > 0 && ((encoded[end] ?? 0) & 0xc0) === 0x80) end--
  return encoded.subarray(0, end).toString('utf8')
}

/** Bytes a section takes when sent with `escapedContent`. */
export const sectionBytes = (heading: string, escapedContent: string): number => bytes(heading) + 2 + bytes(escapedContent)

/** The longest prefix of `content` whose escaped form fits `room` bytes (escaping only lengthens text). */
function fittingPrefix(content: string, room: number, escape: (text: string) => string): string {
  let limit = room
  for (;;) {
    const prefix = prefixWithin(content, limit)
    const over = bytes(escape(prefix)) - room
    if (over <= 0 || prefix === '') return prefix
    limit -= over
  }
}

/** Decides every section in order under `maxBytes`; `escape` is how content is sent. */
export function allocate(sections: readonly BudgetSection[], maxBytes: number, escape: (text: string) => string): BudgetDecision[] {
  let left = Number.isFinite(maxBytes) && maxBytes > 0 ? maxBytes : 0
  return sections.map((section): BudgetDecision => {
    const whole = sectionBytes(section.heading, escape(section.content))
    if (whole <= left) {
      left -= whole
      return { kind: 'whole' }
    }
    if (section.wholeOnly) return { kind: 'left-out' }
    const room = left - sectionBytes(section.heading, '')
    const cut = room > 0 ? fittingPrefix(section.content, room, escape) : ''
    if (cut === '') return { kind: 'left-out' }
    left = 0
    return { kind: 'cut', content: cut }
  })
}
