/**
 * Operator-facing text of the roots verbs (`dsh roots`, `/workspace-folders`): a listing with
 * each root's number, path, alias and state, and one line per change. Paths, aliases and details
 * are made terminal-safe (a control character in a directory name cannot drive the terminal).
 */
import type { WorkspaceRoot, WorkspaceRootsListing } from '@dsh/contracts'
import { terminalLine } from '@dsh/workspace-context'

const shown = (root: WorkspaceRoot): string => `${terminalLine(root.path)}${root.alias === undefined ? '' : ` [${terminalLine(root.alias)}]`}`

function stateOf(root: WorkspaceRoot): string {
  const session = root.origin === 'session' ? ' (this session only)' : ''
  return root.detail === undefined ? `${root.state}${session}` : `${root.state}${session}: ${terminalLine(root.detail)}`
}

/** The listing; `addCommand` is how to add a root (`dsh roots add PATH`). */
export function listingText(listing: WorkspaceRootsListing, addCommand: string): string {
  const lines = [`Primary root: ${terminalLine(listing.primary)} (the working directory; always writable)`]
  if (listing.registryProblem !== undefined) lines.push(`Registry problem: ${terminalLine(listing.registryProblem)}`)
  if (listing.roots.length === 0) {
    lines.push(`No additional roots. Add one with ${addCommand}.`)
    return lines.join('\n')
  }
  for (const root of listing.roots) lines.push(`  ${root.ordinal}. ${shown(root)} — ${stateOf(root)}`)
  const writable = listing.roots.filter((root) => root.state === 'available').length
  lines.push(`Writable additional roots: ${writable} of ${listing.roots.length}.`)
  return lines.join('\n')
}

/** After an addition. */
export const addedText = (root: WorkspaceRoot): string => `Added additional root ${root.ordinal}: ${shown(root)}${root.origin === 'session' ? ' (this session only)' : ''}`

/** After a removal. */
export const removedText = (root: WorkspaceRoot): string => `Removed additional root ${root.ordinal}: ${shown(root)}`

/** After an alias change. */
export const aliasText = (root: WorkspaceRoot): string =>
  root.alias === undefined ? `Additional root ${root.ordinal} has no alias now: ${terminalLine(root.path)}` : `Additional root ${root.ordinal} is now called ${terminalLine(root.alias)}: ${terminalLine(root.path)}`
