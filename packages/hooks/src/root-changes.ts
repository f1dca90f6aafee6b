/**
 * What changed between two listings of a session's additional roots, as RootChanged hooks read it:
 * a root added or removed, or its state changed (gone `missing`, back `available`, `redirected`,
 * `invalid`). Roots are matched by id; an alias change alone is not a change here.
 */
import type { WorkspaceRoot, WorkspaceRootsListing, WorkspaceRootState } from '@dsh/contracts'

/** One change, the `change` and `root` fields of a RootChanged hook's stdin. */
export interface RootChange {
  /** `added` / `removed`, or the root's new state. */
  readonly change: 'added' | 'removed' | WorkspaceRootState
  /** The state before (absent for `added`). */
  readonly previousState?: WorkspaceRootState
  readonly root: { readonly id: string; readonly path: string; readonly state: WorkspaceRootState; readonly origin: string; readonly alias?: string; readonly detail?: string }
}

const rootFields = (root: WorkspaceRoot): RootChange['root'] => ({
  id: root.id,
  path: root.path,
  state: root.state,
  origin: root.origin,
  ...(root.alias === undefined ? {} : { alias: root.alias }),
  ...(root.detail === undefined ? {} : { detail: root.detail }),
})

/** The changes from `before` to `after`, in `after`'s order, then the removed ones. */
export function rootChanges(before: WorkspaceRootsListing, after: WorkspaceRootsListing): RootChange[] {
  const previous = new Map(before.roots.map((root) => [root.id, root]))
  const changes: RootChange[] = []
  for (const root of after.roots) {
    const old = previous.get(root.id)
    previous.delete(root.id)
    if (old === undefined) changes.push({ change: 'added', root: rootFields(root) })
    else if (old.state !== root.state) changes.push({ change: root.state, previousState: old.state, root: rootFields(root) })
  }
  for (const gone of previous.values()) changes.push({ change: 'removed', previousState: gone.state, root: rootFields(gone) })
  return changes
}
