/**
 * `/docs` in the chat: the maintainer-doc-guard verbs for the current session, answered as text by
 * `commands/docs-chat.ts` and plugged into the chat's slash registry.
 */
import type { OperatorService } from '@dsh/maintainer-doc-guard'
import type { SlashCommandSpec } from '@dsh/tui'
import { chatDocs } from '../commands/docs-chat.ts'

/** The command over the guard's operator service (absent when the guard is off). */
export function docsCommand(service: OperatorService | undefined): SlashCommandSpec {
  return {
    name: 'docs',
    usage: '/docs [VERB]',
    help: 'maintainer documents, switches, templates, sweep (/docs help)',
    run: async ({ controller }, args) => (await chatDocs(service, args, controller.agent.session.id)).split('\n'),
  }
}
