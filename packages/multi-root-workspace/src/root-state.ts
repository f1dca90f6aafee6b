/**
 * States of additional roots, re-checked on the disk at every listing: `available` only while the
 * path is a directory that still resolves to the recorded canonical path. Re-resolving a path is
 * never re-authorising it: a path that now leads elsewhere is `redirected` until it is added again.
 */
import type { WorkspaceRoot, WorkspaceRootOrigin, WorkspaceRootState } from '@dsh/contracts'
import { probePath } from './path-probe.ts'
import type { RootRecord, StoredEntry } from './root-record.ts'

/** The state of a well-formed record now, with a one-line detail when it is not available. */
export function recordState(record: RootRecord): { readonly state: WorkspaceRootState; readonly detail?: string } {
  const probe = probePath(record.path)
  switch (probe.kind) {
    case 'absent':
      return { state: 'missing', detail: 'no directory exists there any more' }
    case 'not-a-directory':
      return { state: 'missing', detail: 'it is no longer a directory' }
    case 'unavailable':
      return { state: 'missing', detail: `it cannot be examined (${probe.detail})` }
    case 'directory':
      if (probe.canonical === record.recordedPath) return { state: 'available' }
      return { state: 'redirected', detail: `it now leads to ${probe.canonical} instead of ${record.recordedPath}; add it again to accept the new target` }
    default:
      return probe satisfies never
  }
}

/** A record as a listing shows it. */
export function listedRecord(record: RootRecord, ordinal: number, origin: WorkspaceRootOrigin): WorkspaceRoot {
  const { state, detail } = recordState(record)
  return {
    id: record.id,
    ordinal,
    path: record.path,
    recordedPath: record.recordedPath,
    ...(record.alias === undefined ? {} : { alias: record.alias }),
    addedAt: record.addedAt,
    origin,
    state,
    ...(detail === undefined ? {} : { detail }),
  }
}

/** A stored entry as a listing shows it (an invalid one keeps whatever id and path it had). */
export function listedEntry(entry: StoredEntry, ordinal: number): WorkspaceRoot {
  if (entry.kind === 'record') return listedRecord(entry.record, ordinal, 'registry')
  return { id: entry.id ?? '', ordinal, path: entry.path ?? '(no path)', recordedPath: '', addedAt: '', origin: 'registry', state: 'invalid', detail: `the stored record is invalid: ${entry.reason}; remove it` }
}
