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
export type AbsentNote = 'missing' | 'directory' | 'special-file' | 'dangling-link' | 'duplicate'

/**
 * The scope that carries a file another path of the same pass also leads to (decision D9: one
 * delivery per file): the same node, reached through a link or a hard link.
 */
export interface SameFile {
  /** Scope that carries the content. */
  readonly scope: ScopeRef
  /** Its model-visible path. */
  readonly path: string
}

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
      /** Canonical path of the file read (the link target, or the path under a linked directory). */
      readonly target: string
      /** Identity of the file: the provider's `nodeId`, else the canonical target path. */
      readonly nodeId: string
      readonly digest: string
      /** Digest of the trimmed content (`all`-policy duplicates; blank files have `BLANK_DIGEST`). */
      readonly trimmedDigest: string
      readonly bytes: number
      readonly content?: string | undefined
      /** Set by discovery when another scope of the pass carries the same file (its content is not repeated). */
      readonly sameAs?: SameFile | undefined
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
  /** The same file as an earlier one: rendered as one line naming it while that one is in effect. */
  readonly sameAs?: SameFileItem | undefined
}

/** A {@link SameFile} as rendered: whether the other scope is already in effect before this message. */
export interface SameFileItem extends SameFile {
  /** The other scope is loaded with this content before the message (otherwise it must be retained in it). */
  readonly inEffect: boolean
}

/** One transition to render in a change batch: a `set`, `replace` or `remove`, or an outdated notice. */
export type ChangeItem = Transition | OutdatedNotice

/** A `set` (newly reached), `replace` (changed or switched) or `remove` (no candidate left). */
export interface Transition {
  readonly action: 'set' | 'replace' | 'remove'
  readonly scope: ScopeRef
  readonly path: string
  readonly previousPath?: string | undefined
  /** Full current content (absent for removals, and possibly for a same-file line). */
  readonly content?: string | undefined
  readonly digest?: string | undefined
  /** The same file as another scope's: rendered as one line naming it while that one is in effect. */
  readonly sameAs?: SameFileItem | undefined
  /** Call id of the top-level `read` whose result showed this exact content in full: rendered as one line. */
  readonly readCallId?: string | undefined
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
