/**
 * The roots MCP servers are told about (`roots/list`): the session's working directory and its
 * `available` additional roots (multi-root-workspace) as `file://` URIs, the first named "working
 * directory", the others by their alias or last path segment. A hub follows the sessions it
 * serves: before each step of such a session the roots are listed again (which re-checks the
 * registry and the disk), and when they differ from what the hub answers — a root added, removed,
 * gone missing or back — the hub answers the new ones and sends `notifications/roots/list_changed`.
 */
import { basename } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { SessionView } from '@dsh/contracts'
import type { McpHub, McpRoot } from '@dsh/mcp'
import type { Host } from '@dsh/runtime'

/** One directory of the roots: its absolute path and an optional name. */
interface RootDirectory {
  readonly path: string
  readonly name?: string | undefined
}

/** `directories` (absolute; the working directory first) as MCP roots. */
export function rootsOf(directories: readonly (string | RootDirectory)[]): McpRoot[] {
  return directories.map((item, index) => {
    const directory = typeof item === 'string' ? { path: item } : item
    return { uri: pathToFileURL(directory.path).href, name: index === 0 ? 'working directory' : (directory.name ?? basename(directory.path)) }
  })
}

/** The roots of `session` now: its working directory, then its available additional roots. */
function sessionRoots(host: Host, session: SessionView): McpRoot[] {
  const service = host.ctx.get('workspaceRoots')
  if (service === undefined) return rootsOf([session.header.cwd])
  const roots = service.session(session)
  const available = roots.list().roots.filter((root) => root.state === 'available')
  return rootsOf([roots.primary, ...available.map((root) => ({ path: root.recordedPath, name: root.alias }))])
}

/**
 * Keeps `hub`'s roots those of the last session `serves` accepts that stepped, starting from
 * `initial`; returns the disposer.
 */
export function followSessionRoots(host: Host, hub: McpHub, options: { readonly serves: (session: SessionView) => boolean; readonly initial: readonly McpRoot[] }): () => void {
  let current: readonly McpRoot[] = options.initial
  let signature = JSON.stringify(current)
  hub.setRoots(() => current)
  return host.ctx.on('agent/pre-step', async (payload, next) => {
    const session = payload.agent.session
    if (options.serves(session)) {
      const roots = sessionRoots(host, session)
      const seen = JSON.stringify(roots)
      if (seen !== signature) {
        current = roots
        signature = seen
        hub.rootsChanged()
      }
    }
    return next()
  })
}
