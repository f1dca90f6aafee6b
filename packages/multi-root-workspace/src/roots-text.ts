/**
 * Operator-facing text of the roots verbs (`dsh roots`, `/workspace-folders`): a listing with
 * each root's number, path, alias and state, and one line per change. Paths, aliases and details
 * are made terminal-safe (a control character in a directory name cannot drive the terminal).
 */
import type { AddRootOptions, WorkspaceRoot, WorkspaceRootsListing } from '@dsh/contracts'
import { terminalLine } from '@dsh/workspace-context'
import type { RootsTarget } from './registry-target.ts'

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

/**
 * After an addition; `previous` is the listed root it re-recorded (the same path, added again
 * after it came to lead to another directory), if any.
 */
export function addedText(root: WorkspaceRoot, previous?: WorkspaceRoot): string {
  const session = root.origin === 'session' ? ' (this session only)' : ''
  if (previous === undefined) return `Added additional root ${root.ordinal}: ${shown(root)}${session}`
  return `Re-recorded additional root ${root.ordinal}: ${shown(root)}${session} now leads to ${terminalLine(root.recordedPath)} (it led to ${terminalLine(previous.recordedPath)})`
}

/** Adds `path` to `target` and describes what happened (an addition, or a re-recorded root). */
export async function addRoot(target: Pick<RootsTarget, 'list' | 'add'>, path: string, options: AddRootOptions = {}): Promise<string> {
  const before = target.list().roots
  const root = await target.add(path, options)
  return addedText(root, before.find((listed) => listed.id === root.id && listed.recordedPath !== root.recordedPath))
}

/** After a removal. */
export const removedText = (root: WorkspaceRoot): string => `Removed additional root ${root.ordinal}: ${shown(root)}`

/** After an alias change. */
export const aliasText = (root: WorkspaceRoot): string =>
  root.alias === undefined ? `Additional root ${root.ordinal} has no alias now: ${terminalLine(root.path)}` : `Additional root ${root.ordinal} is now called ${terminalLine(root.alias)}: ${terminalLine(root.path)}`
