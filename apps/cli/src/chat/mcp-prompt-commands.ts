/**
 * MCP prompts as chat slash commands: each prompt of a connected server joins the chat's commands
 * as `/mcp__<server>__<prompt> [arguments]` (so `/help` and Tab completion list it) once its server
 * has listed it, and leaves when the server no longer offers it. Running one gets the prompt's
 * messages from the server and sends them as the next prompt; a failure is one warning line.
 */
import type { McpHub } from '@dsh/mcp'
import type { ChatRunOptions } from '@dsh/tui'

/** The chat's `liveCommands` for `hub`. */
export function mcpPromptCommands(hub: McpHub): NonNullable<ChatRunOptions['liveCommands']> {
  return (register) => {
    const registered = new Map<string, { readonly key: string; readonly remove: () => void }>()
    const sync = (): void => {
      const offered = hub.prompts()
      const names = new Set(offered.map((command) => command.name))
      for (const [name, entry] of registered) {
        if (names.has(name) && entry.key === JSON.stringify(offered.find((command) => command.name === name))) continue
        entry.remove()
        registered.delete(name)
      }
      for (const command of offered) {
        if (registered.has(command.name)) continue
        const remove = register({
          name: command.name.toLowerCase(),
          usage: `/${command.name}${command.hint === undefined ? '' : ` ${command.hint}`}`,
          help: command.description.slice(0, 100),
          run: async ({ controller }, args) => {
            const expansion = await hub.expandPrompt(command.name, args.join(' '))
            switch (expansion.kind) {
              case 'expanded':
                // The server's message is a prompt as it stands: a leading "/" or "!" is text, never a command the chat runs.
                void controller.submit(expansion.text, { asPrompt: true })
                return undefined
              case 'unknown':
                return `/${command.name}: the MCP server "${command.server}" no longer offers this prompt`
              case 'failed':
                return `warning: ${expansion.message}`
              default: {
                const unreachable: never = expansion
                throw new Error(`unknown expansion ${JSON.stringify(unreachable)}`)
              }
            }
          },
        })
        registered.set(command.name, { key: JSON.stringify(command), remove })
      }
    }
    sync()
    hub.onChange(sync)
  }
}
