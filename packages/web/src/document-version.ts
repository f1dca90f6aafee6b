/**
 * The version of a maintainer document as the page sees it: the guard's `documentVersion`
 * (SHA-256 hex of its text). The page reads a document with its version and sends that version
 * back with a save; the operator service checks it and writes in one step under a lock, so a save
 * whose version no longer matches the text on disk (the model, another tab, another `dsh web` or
 * an editor changed it meanwhile) is refused with 409 and nobody's text is overwritten unseen.
 */
export { documentVersion } from '@dsh/maintainer-doc-guard'

/** What a version looks like on the wire. */
export const versionPattern = /^[0-9a-f]{64}$/
