/**
 * RootChanged: follows the additional roots of each session an agent runs (the
 * multi-root-workspace plugin's `workspaceRoots` service and its `onChange` notifications) and
 * runs the RootChanged hooks once per change — a root added or removed, gone missing, back, or
 * redirected. The roots a session starts with are its baseline, not changes. While the registry
 * cannot be read its roots drop out of listings; that is not reported as removals.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { AgentHandle, SessionView, WorkspaceRootsListing } from '@dsh/contracts'
import type { HookEntry } from './hook-types.ts'
import type { HookRunner } from './hook-runner.ts'
import { rootChanges } from './root-changes.ts'

/** Follows the roots of agents' sessions; `follow` is idempotent per session view. */
export interface RootFollower {
  follow(agent: AgentHandle): void
  /** Stops following every session. */
  dispose(): void
}

/** Creates the follower. */
export function followRoots(ctx: Context, runner: HookRunner, entries: () => readonly HookEntry[]): RootFollower {
  const followed = new WeakSet<SessionView>()
  const disposers = new Set<() => void>()
  return {
    follow: (agent) => {
      const service = ctx.get('workspaceRoots')
      if (service === undefined || followed.has(agent.session)) return
      followed.add(agent.session)
      const roots = service.session(agent.session)
      let last: WorkspaceRootsListing = roots.list()
      disposers.add(
        roots.onChange((listing) => {
          if (listing.registryProblem !== undefined) return
          const changes = rootChanges(last, listing)
          last = listing
          const runnable = entries()
          if (runnable.length === 0) return
          for (const change of changes) runner.observe('RootChanged', agent, { ...change }, runnable)
        }),
      )
    },
    dispose: () => {
      for (const dispose of disposers) dispose()
      disposers.clear()
    },
  }
}
