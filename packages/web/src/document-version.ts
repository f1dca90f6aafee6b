/**
 * The version of a maintainer document as the page sees it: SHA-256 hex of its text. The page
 * reads a document with its version and sends that version back with a save; a save whose
 * version no longer matches the text on disk (the model, another tab or an editor changed it
 * meanwhile) is refused, so nobody's text is overwritten unseen.
 */
import { createHash } from 'node:crypto'

/** SHA-256 hex of `text` (UTF-8). */
export const documentVersion = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

/** What a version looks like on the wire. */
export const versionPattern = /^[0-9a-f]{64}$/
