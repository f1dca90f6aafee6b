/**
 * The additional roots whose top-level skill folders a front end's `/name` expansion looks in: the
 * same set the session's skills plugin discovers (`writableRoots()` of the session's roots: the
 * roots registered for its working directory, then the directories granted to it), so `dsh run`,
 * `dsh chat`, ACP and the web page expand exactly the skills the catalog lists. Where the session
 * is not open (yet), a transient view of its roots is built from the registry and the directories
 * that will be granted; a directory refused there is left out (the grant itself reports it).
 */
import type { SessionView, WorkspaceRootsService } from '@dsh/contracts'
import { isRootsError, RootRegistry, SessionRoots } from '@dsh/multi-root-workspace'

/** Where the session's roots come from. */
export interface SkillRootsInput {
  readonly dshHome: string
  /** Canonical working directory (the primary root). */
  readonly cwd: string
  /** Directories granted to the session only (`--add-dir`, ACP `additionalDirectories`), absolute. */
  readonly granted: readonly string[]
  /** False when additional roots are disabled (the plugin is not mounted): no roots at all. */
  readonly enabled: boolean
}

/** The roots of a session that is not open: registered roots of `cwd`, then `granted`. */
export async function prospectiveSkillRoots(input: SkillRootsInput): Promise<readonly string[]> {
  if (!input.enabled) return []
  const roots = new SessionRoots({ registry: new RootRegistry({ dshHome: input.dshHome }), sessionId: 'skills', primary: input.cwd })
  for (const dir of input.granted) {
    try {
      await roots.addForSession(dir)
    } catch (error) {
      // A refused or already registered directory: the real grant says so; here it adds nothing.
      if (!isRootsError(error)) throw error
    }
  }
  return roots.writableRoots()
}

/** The roots of an open session (what the skills plugin uses). */
export const liveSkillRoots = (service: WorkspaceRootsService | undefined, session: SessionView): readonly string[] => service?.session(session).writableRoots() ?? []
