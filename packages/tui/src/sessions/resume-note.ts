/**
 * What a front end says about the directory of a session it resumed: a session keeps working in
 * the directory it was created in (its tools, writable root and instruction files), whatever
 * directory the front end itself started in.
 */
import type { Agent } from '@dsh/runtime'

/** `resumed session ID (N visible messages); it works in DIR…`, naming the launch directory when it differs. */
export function resumedSessionLine(agent: Agent, launchCwd: string): string {
  const works = agent.handle.cwd
  const where = works === launchCwd ? `it works in ${works}` : `it works in ${works}, where it was created (not in ${launchCwd}, where this dsh started)`
  return `resumed session ${agent.session.id} (${agent.session.surface.length} visible messages); ${where}`
}
