/**
 * Checks directories a new session would get as session-only roots (`--add-dir`, an editor's
 * `additionalDirectories`) without granting them: the first refusal as one line naming the
 * directory, the code and the reason, or undefined when every one is valid. A directory that is
 * already a root (registered, or named twice) is not refused: it is a root of the session either way.
 */
import { isRootsError } from './errors.ts'
import { RootRegistry } from './root-registry.ts'
import { SessionRoots } from './session-roots.ts'

/** Options of {@link refusedSessionDirectory}. */
export interface SessionDirCheck {
  /** Resolved `$DSH_HOME` (the registry lives there). */
  readonly dshHome: string
  /** The session's primary root (canonical). */
  readonly primary: string
  /** The directories to check (absolute). */
  readonly dirs: readonly string[]
}

/** The first refusal, or undefined. Errors other than validation refusals propagate. */
export async function refusedSessionDirectory(check: SessionDirCheck): Promise<string | undefined> {
  const roots = new SessionRoots({ registry: new RootRegistry({ dshHome: check.dshHome }), sessionId: 'check', primary: check.primary })
  for (const dir of check.dirs) {
    try {
      await roots.addForSession(dir)
    } catch (error) {
      // Validation failures are the caller's input; anything else is a failure of dsh itself.
      if (!isRootsError(error)) throw error
      if (error.code !== 'duplicate') return `${dir}: ${error.code}: ${error.message}`
    }
  }
  return undefined
}
