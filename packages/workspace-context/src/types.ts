/**
 * Shared value types of discovery, reconciliation and rendering.
 */
import type { FsInfo } from '@dsh/contracts'
import type { ScopeRef } from './scope-key.ts'

/**
 * Why a candidate could not be used although something may be there. Transient reasons (a probe
 * or read that failed, a file swapped for a special file while it was opened, a sibling that
 * could not be read) say nothing about the file; definite ones ({@link DefiniteReason}) say it
 * exists but cannot be loaded as it is now.
 */
export type UnavailableReason =
  | 'probe-failed'
  | 'read-failed'
  | 'too-large'
  | 'not-utf8'
  | 'binary'
  | 'escaping-link'
  | 'symlink-refused'
  | 'special-file-at-open'
  /** Policy `all`: an earlier candidate of the same directory could not be read, so duplicates cannot be judged. */
  | 'sibling-unavailable'

/** Reasons that describe the file as it is now (it cannot be loaded until it changes). */
export type DefiniteReason = Extract<UnavailableReason, 'too-large' | 'not-utf8' | 'binary' | 'escaping-link' | 'symlink-refused'>

/** Why a candidate counts as absent although a directory entry may exist. */
export type AbsentNote = 'missing' | 'directory' | 'special-file' | 'dangling-link' | 'duplicate' | 'same-as-user-global'

/** Three-state result of one candidate probe (metadata only, nothing read). */
export type CandidateProbe =
  | { readonly state: 'present'; readonly name: string; readonly path: string; readonly target: string; readonly info: FsInfo; readonly viaLink: boolean }
  | { readonly state: 'absent'; readonly name: string; readonly path: string; readonly note: AbsentNote }
  | { readonly state: 'unavailable'; readonly name: string; readonly path: string; readonly reason: UnavailableReason; readonly detail?: string }

/** What examining one scope found. `content` is absent when a cache hit made reading unnecessary. */
export type ScopeObservation =
  | {
      readonly state: 'present'
      readonly scope: ScopeRef
      /** Model-visible path. */
      readonly path: string
      /** Absolute path of the candidate (unresolved). */
      readonly absPath: string
      readonly digest: string
      readonly bytes: number
      readonly content?: string | undefined
    }
  | { readonly state: 'absent'; readonly scope: ScopeRef; readonly note: AbsentNote; readonly path?: string | undefined }
  | { readonly state: 'unavailable'; readonly scope: ScopeRef; readonly reason: UnavailableReason; readonly path: string; readonly detail?: string | undefined }

/** A loaded instruction file ready to render. */
export interface LoadedFile {
  readonly scope: ScopeRef
  /** Model-visible path. */
  readonly path: string
  readonly content: string
  readonly digest: string
}

/** One transition to render in a change batch: a `set`, `replace` or `remove`, or an outdated notice. */
export type ChangeItem = Transition | OutdatedNotice

/** A `set` (newly reached), `replace` (changed or switched) or `remove` (no candidate left). */
export interface Transition {
  readonly action: 'set' | 'replace' | 'remove'
  readonly scope: ScopeRef
  readonly path: string
  readonly previousPath?: string | undefined
  /** Full current content (absent for removals). */
  readonly content?: string | undefined
  readonly digest?: string | undefined
}

/**
 * A loaded file changed but can no longer be loaded for a definite `reason`: the model is told the
 * loaded text may be outdated. Persisted as a `replace` without a digest, marked `unloadable` (the scope stays loaded,
 * with no content identity, so the notice is not repeated and any later loadable content is sent
 * as an update).
 */
export interface OutdatedNotice {
  readonly action: 'outdated'
  readonly scope: ScopeRef
  readonly path: string
  readonly reason: DefiniteReason
}
