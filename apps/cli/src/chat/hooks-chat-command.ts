/**
 * `/hooks` in the chat: the hooks in force for this chat (as `dsh hooks list` shows them, from the
 * hooks plugin's own set), and `/hooks trust`, which pins the project's hook files as `dsh hooks
 * trust` does and reloads the set, so the project's hooks run from the next event on without
 * leaving the chat.
 */
import { projectHookFiles } from '@dsh/hooks'
import type { Host } from '@dsh/runtime'
import type { SlashCommandSpec } from '@dsh/tui'
import { hookLines, trustLines } from '../hook-lines.ts'

/** What the command needs: the host (its hooks service), the project directory and the home whose trust store it writes. */
export interface HooksCommandOptions {
  readonly host: Host
  readonly cwd: string
  readonly dshHome: string
}

/** The command. */
export function hooksChatCommand(options: HooksCommandOptions): SlashCommandSpec {
  return {
    name: 'hooks',
    usage: '/hooks [trust]',
    help: 'the hooks in force and where they come from; "trust" lets this project\'s hook files run',
    run: (_context, args) => {
      const hooks = options.host.ctx.get('hooks')
      if (hooks === undefined) return 'hooks are not available in this chat'
      if (args.length === 0) {
        const set = hooks.current()
        return set.all.length === 0 ? `no hooks configured (settings.yaml hooks:, or ${projectHookFiles(options.cwd).join(' / ')})` : hookLines(set, '/hooks trust')
      }
      if (args.length > 1 || args[0] !== 'trust') return `usage: /hooks [trust] (not "${args.join(' ')}")`
      const lines = trustLines(options.cwd, options.dshHome, 'from now on, until it changes')
      hooks.reload()
      return lines
    },
  }
}
