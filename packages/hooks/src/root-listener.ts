/**
 * RootChanged: follows the additional roots of each top-level session an agent runs (the
 * multi-root-workspace plugin's `workspaceRoots` service and its `onChange` notifications) and
 * runs the RootChanged hooks once per change — a root added or removed, gone missing, back, or
 * redirected. Subagents share their parent's roots and are not followed (one run per change). The
 * roots a session starts with are its baseline, not changes. While the registry cannot be read
 * its roots drop out of listings; that is not reported as removals. A session is followed through
 * its latest agent only (ACP opens one per prompt) until it ends.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { AgentHandle, SessionView, WorkspaceRootsListing } from '@dsh/contracts'
import type { HookEntry } from './hook-types.ts'
import type { HookRunner } from './hook-runner.ts'
import { rootChanges } from './root-changes.ts'

/** Follows the roots of agents' sessions; `follow` is idempotent per session view. */
export interface RootFollower {
  follow(agent: AgentHandle): void
  /** Stops following session `id` (it ended). */
  unfollow(id: string): void
  /** Stops following every session. */
  dispose(): void
}

/** Creates the follower. */
export function followRoots(ctx: Context, runner: HookRunner, entries: () => readonly HookEntry[]): RootFollower {
  const followed = new Map<string, { readonly session: SessionView; readonly dispose: () => void }>()
  const unfollow = (id: string): void => {
    followed.get(id)?.dispose()
    followed.delete(id)
  }
  return {
    follow: (agent) => {
      const service = ctx.get('workspaceRoots')
      if (service === undefined || agent.delegationDepth > 0 || followed.get(agent.id)?.session === agent.session) return
      unfollow(agent.id)
      const roots = service.session(agent.session)
      let last: WorkspaceRootsListing = roots.list()
      const dispose = roots.onChange((listing) => {
        if (listing.registryProblem !== undefined) return
        const changes = rootChanges(last, listing)
        last = listing
        const runnable = entries()
        if (runnable.length === 0) return
        for (const change of changes) runner.observe('RootChanged', agent, { ...change }, runnable)
      })
      followed.set(agent.id, { session: agent.session, dispose })
    },
    unfollow,
    dispose: () => {
      for (const entry of followed.values()) entry.dispose()
      followed.clear()
    },
  }
}
