/**
 * Content identities: SHA-256 hex of the exact text (decision D4), persisted in message sources,
 * and of the trimmed text, used to drop same-directory duplicates under the `all` policy and to
 * recognise blank files (empty or only whitespace), which have nothing to deliver.
 */
import { hash } from 'node:crypto'

/** SHA-256 hex of the exact UTF-8 content. */
export function contentDigest(text: string): string {
  // One-shot `hash` (Node 20.12+): the same digest as a `createHash` object, without building one.
  return hash('sha256', text, 'hex')
}

/** SHA-256 hex of the content with surrounding whitespace removed (duplicate detection only). */
export function trimmedDigest(text: string): string {
  return contentDigest(text.trim())
}

/** Trimmed digest of a blank file (empty or only whitespace): such a file has nothing to deliver. */
export const BLANK_DIGEST = trimmedDigest('')

/** True for a file that is empty or only whitespace: it has nothing to deliver (never sent). */
export const isBlank = (file: { readonly trimmedDigest: string }): boolean => file.trimmedDigest === BLANK_DIGEST
