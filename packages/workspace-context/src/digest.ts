/**
 * Content identities: SHA-256 hex of the exact text (decision D4), persisted in message sources,
 * and of the trimmed text, used only to drop same-directory duplicates under the `all` policy.
 */
import { createHash } from 'node:crypto'

/** SHA-256 hex of the exact UTF-8 content. */
export function contentDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** SHA-256 hex of the content with surrounding whitespace removed (duplicate detection only). */
export function trimmedDigest(text: string): string {
  return contentDigest(text.trim())
}
