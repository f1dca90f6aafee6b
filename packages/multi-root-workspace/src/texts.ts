/**
 * Every model-visible string of the plugin that is its own; file sections, withdrawals and the
 * budget notice use workspace-context's wording (`frames`) so instruction files read the same
 * wherever they come from. The README's "What the model sees" quotes these, and the golden tests
 * pin them.
 */
import type { WorkspaceRootState } from '@dsh/contracts'
import type { UnavailableReason } from '@dsh/workspace-context'

/** A root as the note names it. */
export interface NamedRoot {
  readonly path: string
  readonly alias?: string | undefined
}

const withAlias = (root: NamedRoot): string => (root.alias === undefined ? root.path : `${root.path} (alias ${JSON.stringify(root.alias)})`)

/** The runtime-context note: which additional roots exist (sent when the set or an alias changes). */
export function rootsNote(primary: string, roots: readonly NamedRoot[]): string {
  return [
    `Additional workspace roots: besides the working directory ${primary}, this session may read and write files in these directories:`,
    ...roots.map((root) => `- ${withAlias(root)}`),
    'This list replaces any earlier one. Relative paths still resolve against the working directory, so use absolute paths for files in these roots.',
  ].join('\n')
}

/** Why a root was revoked, as a clause (keys: how it left). */
export const REVOCATION_REASONS = {
  removed: 'it was removed from the workspace roots',
  missing: 'its directory is gone or can no longer be examined',
  redirected: 'its path now leads to a different directory',
  invalid: 'its registry record is no longer valid',
  unreadable: 'the workspace roots registry cannot be read',
} as const satisfies Record<Exclude<WorkspaceRootState, 'available'> | 'removed' | 'unreadable', string>

/** How a root stopped being available. */
export type RevocationReason = keyof typeof REVOCATION_REASONS

/** An explicit revocation: never cut by the budget. */
export const revokedSection = (path: string, reason: RevocationReason): string =>
  `Workspace root revoked: ${path}\n\n${path} is no longer a workspace root of this session (${REVOCATION_REASONS[reason]}). Instructions loaded from it earlier no longer apply, and files in it can no longer be written.`

/**
 * A revocation of the directory a root's path used to lead to, when the same path was added again
 * for the directory it leads to now (the roots note, and that directory's files if it has any,
 * follow in the same message). Never cut by the budget.
 */
export const replacedSection = (path: string): string =>
  `Workspace root replaced: ${path}\n\n${path} now leads to a different directory than before, and that directory was added as a workspace root in its place. Instructions loaded from the earlier directory no longer apply; only those of the directory it leads to now do.`

/** Intro before the instruction files. */
export const INSTRUCTIONS_INTRO =
  'Instruction files of the additional workspace roots follow. Each applies to work inside its own root: top-level files to the whole root, files in subdirectories to work under those subdirectories, and more specific files take precedence. They do not override system, developer, or direct user instructions.'

/** Heading of one root's files. */
export const rootHeading = (root: NamedRoot): string => `Instructions for additional workspace root ${withAlias(root)}:`

/** Diagnostics (one line each, to the plugin's `warn` sink), once per session. */
export const WARNINGS = {
  scopes: (limit: number) => `additional-root instructions: ${limit} instruction files were delivered in this session; nested instruction files are no longer sent (raise multiRootWorkspace.maxDeliveredScopes)`,
  touches: (limit: number) => `additional-root instructions: more than ${limit} touched paths were waiting; later touches are ignored until the next step (raise multiRootWorkspace.maxPendingTouches)`,
  calls: (limit: number) => `additional-root instructions: more than ${limit} read/write/edit calls were waiting for results; later calls are not tracked (raise multiRootWorkspace.maxPendingCalls)`,
} as const

/** Why an instruction file that exists is not loaded (diagnostics only; absent: not reported on its own). */
const UNUSABLE: Readonly<Partial<Record<UnavailableReason, string>>> = {
  'probe-failed': 'could not be examined',
  'read-failed': 'could not be read',
  'too-large': 'is larger than maxSourceBytes',
  'not-utf8': 'is not UTF-8 text',
  binary: 'contains NUL bytes',
  'escaping-link': 'links outside its additional root',
  'symlink-refused': 'is a symlink and followSymlinks is false',
  'special-file-at-open': 'turned out to be a special file when opened',
}

/** The warning for an instruction file of an additional root that exists but is not loaded (`undefined`: none). */
export function unusableWarning(path: string, reason: UnavailableReason, detail: string | undefined): string | undefined {
  const why = UNUSABLE[reason]
  if (why === undefined) return undefined
  const transient = reason === 'probe-failed' || reason === 'read-failed'
  return `additional-root instructions: ${path} ${why}${transient && detail !== undefined ? ` (${detail})` : ''}; it is not loaded`
}
