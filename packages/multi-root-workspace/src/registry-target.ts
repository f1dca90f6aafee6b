/**
 * The roots of a primary root without a live session (`dsh roots`): the registry alone, behind
 * the same operations a session's roots offer, so every front end shares one set of verbs.
 */
import type { SessionWorkspaceRoots, WorkspaceRootsListing } from '@dsh/contracts'
import type { RootRegistry } from './root-registry.ts'
import { resolveReference } from './root-reference.ts'

/** What the roots verbs operate on: a session's roots, or a primary root's registry. */
export type RootsTarget = Pick<SessionWorkspaceRoots, 'primary' | 'list' | 'add' | 'remove' | 'alias'>

/** The registry of `primary` as a {@link RootsTarget}. */
export function registryTarget(registry: RootRegistry, primary: string, home?: string): RootsTarget {
  const list = (): WorkspaceRootsListing => {
    const listed = registry.list(primary)
    return { primary, roots: listed.roots, ...(listed.problem === undefined ? {} : { registryProblem: listed.problem }) }
  }
  return {
    primary,
    list,
    add: (path, options = {}) => registry.add(primary, path, { alias: options.alias }),
    remove: async (reference) => registry.remove(primary, resolveReference(list().roots, reference, home)),
    alias: async (reference, alias) => registry.alias(primary, resolveReference(list().roots, reference, home), alias),
  }
}
