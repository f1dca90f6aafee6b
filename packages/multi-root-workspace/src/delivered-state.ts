/**
 * What the model has been told about additional roots, derived only from the typed sources of
 * this plugin's messages on the session's visible surface (never from prose, never from memory):
 * resuming a session continues where it was, and a compaction that drops those messages makes the
 * plugin tell the model again.
 *
 * Scope keys (persisted in `InstructionChange.scope`, with the root's canonical path also in
 * `InstructionChange.root`; NUL cannot occur in a path, so keys never collide):
 * - `root␀<canonical root>`: the root was announced in the roots note (`path`: as shown; `digest`:
 *   of its path and alias). A `remove` is a revocation.
 * - `file␀<canonical root>␀<root-relative dir>␀<file name>`: an instruction file (`path`: absolute
 *   as shown; `digest`: SHA-256 of its content; `truncated`: the model has not seen all of it —
 *   cut or omitted by the budget). A `remove` is a withdrawal.
 */
import type { SessionView } from '@dsh/contracts'
import { contentDigest, deriveVisibleState } from '@dsh/workspace-context'

/** `source.plugin` of this plugin's messages. */
export const PLUGIN_NAME = 'multi-root-workspace'

const SEP = '\u0000'

/** Scope key of a root's announcement. */
export const rootScope = (root: string): string => `root${SEP}${root}`

/** True for the scope key of a root's announcement (the roots note), which is no instruction file. */
export const isRootScope = (scope: string): boolean => scope.startsWith(`root${SEP}`)

/** Scope key of one instruction file. */
export const fileScope = (root: string, dir: string, name: string): string => `file${SEP}${root}${SEP}${dir}${SEP}${name}`

/** Digest of how a root is announced (a changed alias re-sends the note). */
export const announcementDigest = (path: string, alias: string | undefined): string => contentDigest(`${path}${SEP}${alias ?? ''}`)

/** An announced root. */
export interface AnnouncedRoot {
  readonly root: string
  readonly path: string
  readonly digest: string | undefined
}

/** A delivered instruction file. */
export interface DeliveredFile {
  readonly scope: string
  readonly root: string
  readonly dir: string
  readonly name: string
  readonly path: string
  readonly digest: string | undefined
  readonly truncated: boolean
}

/** The delivered state of one session. */
export interface DeliveredState {
  /** Announced roots by canonical root. */
  readonly roots: ReadonlyMap<string, AnnouncedRoot>
  /** Delivered files by scope key. */
  readonly files: ReadonlyMap<string, DeliveredFile>
}

/** Derives the state from `session`'s visible surface. */
export function deriveDelivered(session: SessionView): DeliveredState {
  const roots = new Map<string, AnnouncedRoot>()
  const files = new Map<string, DeliveredFile>()
  for (const [scope, entry] of deriveVisibleState(session, PLUGIN_NAME).scopes) {
    if (entry.action === 'remove') continue
    const parts = scope.split(SEP)
    if (parts[0] === 'root' && parts.length === 2 && parts[1] !== undefined) {
      roots.set(parts[1], { root: parts[1], path: entry.path, digest: entry.digest })
    } else if (parts[0] === 'file' && parts.length === 4) {
      const [, root = '', dir = '', name = ''] = parts
      files.set(scope, { scope, root, dir, name, path: entry.path, digest: entry.digest, truncated: entry.truncated })
    }
  }
  return { roots, files }
}

/** Files of `root`, in delivery order. */
export const filesOf = (state: DeliveredState, root: string): DeliveredFile[] => [...state.files.values()].filter((file) => file.root === root)
