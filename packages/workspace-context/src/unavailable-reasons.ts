/**
 * Classification of unavailable reasons. A definite reason describes the file as it is under the
 * current settings (it cannot be loaded until it or the settings change); a transient one (a probe
 * or read that threw, a file swapped for a special file while opened, a sibling that could not be
 * read) says nothing about the file and may clear at the next attempt.
 */
import type { DefiniteReason, UnavailableReason } from './types.ts'

const DEFINITE: ReadonlySet<UnavailableReason> = new Set<DefiniteReason>(['too-large', 'not-utf8', 'binary', 'escaping-link', 'symlink-refused'])

/** True for a definite reason; false for a transient failure (retried, never acted on). */
export const isDefiniteReason = (reason: UnavailableReason): reason is DefiniteReason => DEFINITE.has(reason)
