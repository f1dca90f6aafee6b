/**
 * Model-visible text of the standing reminder section: its default title and intro, the line
 * shown when no document exists yet, and the frame of the injected plan and conventions content.
 */

/** Default `title`. */
export const REMINDER_TITLE = '# Maintainer documents — read before every operation'

/** Default `intro`. */
export const REMINDER_INTRO =
  'Durable memory for this work lives in the documents below, outside the conversation. Before each operation or round of thinking, read the one that bears on it. Re-read it instead of trusting what you remember: earlier context may have been compacted. These documents are the source of truth for the plan, the conventions, the stack and the current state.'

/** Shown instead of the list when no document exists. */
export function noDocumentsLine(expected: readonly string[], folder: string): string {
  return `No maintainer documents exist yet (expected: ${expected.join(', ')} in ${folder}/).`
}

/** Suffix of the ledger's list entry. */
export const LEDGER_NOTE = ' (your lessons ledger: append a line when a mistake has been corrected; matching lines are shown to you when a call meets their trigger)'

/** First line of a reminder delivered again because the documents changed (history placement). */
export const REMINDER_UPDATE_LINE = 'The maintainer documents changed. This replaces the earlier list and injected text:'

/** Delivered when a reminder was given earlier and no document is left to list (history placement). */
export const REMINDER_WITHDRAWN = 'The maintainer documents listed earlier no longer exist; nothing replaces them.'

/** Default `injectDocs.title`. */
export const INJECT_TITLE = '## Mandatory requirements — injected in full, not just listed'

/** Opening frame line of an injected document. */
export const frameOpen = (path: string): string => `--- begin ${path} ---`

/** Closing frame line of an injected document. */
export const frameClose = (path: string): string => `--- end ${path} ---`

/** Line before the closing frame of a cut document. */
export const TRUNCATED_LINE = '(truncated — open the file for the rest)'
