/**
 * `/workspace-folders` in the chat: the current session's additional workspace roots (`list`,
 * `add PATH`, `remove N|PATH|ID`, `alias N|PATH [NAME]`), answered by the multi-root plugin's
 * text function and plugged into the chat's slash registry. `/add-dir PATH` is Claude Code's
 * spelling of `/workspace-folders add PATH`.
 */
import { workspaceFolders } from '@dsh/multi-root-workspace'
import type { Host } from '@dsh/runtime'
import type { SlashCommandSpec, SlashContext } from '@dsh/tui'

/** The answer of the multi-root plugin to `text` for the chat's session. */
async function answer(host: Host, { controller, view }: SlashContext, text: string): Promise<string[]> {
  const roots = host.ctx.get('workspaceRoots')?.session(controller.agent.session)
  const reply = roots === undefined ? 'additional workspace roots are disabled (multiRootWorkspace.enabled is false)' : await workspaceFolders(roots, text)
  // The status line counts the roots.
  view.statusChanged()
  return reply.split('\n')
}

/** The command for a host. */
export function workspaceFoldersCommand(host: Host): SlashCommandSpec {
  return {
    name: 'workspace-folders',
    usage: '/workspace-folders [ARGS]',
    help: 'additional workspace roots: list, add PATH, remove N|PATH|ID, alias N|PATH [NAME]',
    run: (context, args) => answer(host, context, args.join(' ')),
  }
}

/** `/add-dir PATH`, as Claude Code spells it. */
export function addDirCommand(host: Host): SlashCommandSpec {
  return {
    name: 'add-dir',
    usage: '/add-dir PATH',
    help: 'add an additional workspace root to this session (/workspace-folders add PATH)',
    run: (context, args) => (args.length === 0 ? 'usage: /add-dir PATH (the directory to add; /workspace-folders lists the roots)' : answer(host, context, `add ${args.join(' ')}`)),
  }
}
