/**
 * The completion standard: after a successful write or edit of a code artifact (by extension),
 * the next call — of any tool — carries one reminder to state how the change was verified and
 * the reading it produced. Each artifact is reminded about once per session.
 */
import { extname } from 'node:path'

/** Extensions of code artifacts (without the dot). */
export const CODE_EXTENSIONS: ReadonlySet<string> = new Set(['mjs', 'cjs', 'js', 'jsx', 'ts', 'tsx', 'mts', 'cts', 'ps1', 'sh', 'bash', 'bat', 'cmd', 'py', 'json', 'yml', 'yaml', 'toml'])

/** True for a code artifact. */
export function isCodeArtifact(path: string): boolean {
  return CODE_EXTENSIONS.has(extname(path).slice(1).toLowerCase())
}
