/**
 * `/workspace-folders` in the chat: the current session's additional workspace roots (`list`,
 * `add PATH`, `remove N|PATH|ID`, `alias N|PATH [NAME]`), answered by the multi-root plugin's
 * text function and plugged into the chat's slash registry.
 */
import { workspaceFolders } from '@dsh/multi-root-workspace'
import type { Host } from '@dsh/runtime'
import type { SlashCommandSpec } from '@dsh/tui'

/** The command for a host. */
export function workspaceFoldersCommand(host: Host): SlashCommandSpec {
  return {
    name: 'workspace-folders',
    usage: '/workspace-folders [ARGS]',
    help: 'additional workspace roots: list, add PATH, remove N|PATH|ID, alias N|PATH [NAME]',
    run: async ({ controller, view }, args) => {
      const roots = host.ctx.get('workspaceRoots')?.session(controller.agent.session)
      const text = roots === undefined ? 'additional workspace roots are disabled (multiRootWorkspace.enabled is false)' : await workspaceFolders(roots, args.join(' '))
      // The status line counts the roots.
      view.statusChanged()
      return text.split('\n')
    },
  }
}
