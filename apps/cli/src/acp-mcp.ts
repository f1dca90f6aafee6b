/**
 * The MCP servers an editor sends over ACP, for `dsh acp`: each session's `mcpServers` become a
 * hub of its own whose tools sit on a registry layered over the host's, so only that session's
 * agent offers them. stdio servers start in the session's working directory with the minimal
 * environment and the host's process marker (its exit hook ends them); their roots follow the
 * session's (mcp-roots.ts); their prompts are the session's `/mcp__<server>__<prompt>` commands.
 * Unusable entries are one `warning:` line each.
 */
import type { AcpMcpServers } from '@dsh/acp'
import { editorEntries, McpHub, mcpLimits } from '@dsh/mcp'
import { ToolRegistry } from '@dsh/runtime'
import { TOOL_CALL_VARIABLE } from '@dsh/tools'
import type { AgentSetup } from './agent-setup.ts'
import { expandMcpPrompt } from './command-expansion.ts'
import { followSessionRoots, rootsOf } from './mcp-roots.ts'
import { version } from './version.ts'

/** The editor-sent servers of `setup`'s sessions. */
export function acpMcpServers(setup: Pick<AgentSetup, 'host' | 'config' | 'processes' | 'log'>, env: Readonly<Record<string, string | undefined>>): AcpMcpServers {
  return {
    http: true,
    open(session, servers) {
      const { entries, problems } = editorEntries(servers, `session ${session.id} mcpServers`)
      for (const problem of problems) setup.log(`warning: ${problem}`)
      if (entries.length === 0) return undefined
      const tools = new ToolRegistry({ base: setup.host.tools })
      const hub = new McpHub({
        entries,
        limits: mcpLimits(setup.config.mcp),
        registry: tools,
        cwd: session.cwd,
        env,
        marker: () => ({ name: TOOL_CALL_VARIABLE, value: setup.processes.nextMarker() }),
        log: setup.log,
        version,
      })
      const unfollow = followSessionRoots(setup.host, hub, { serves: (view) => view.header.id === session.id, initial: rootsOf([session.cwd, ...session.additional]) })
      hub.start()
      return {
        tools,
        commands: {
          list: () => hub.prompts().map((command) => ({ name: command.name, description: command.description, ...(command.hint === undefined ? {} : { hint: command.hint }) })),
          expand: (text) => expandMcpPrompt(hub, text, setup.log),
          onChange: (listener) => hub.onChange(listener),
        },
        close: () => {
          unfollow()
          return hub.close()
        },
      }
    },
  }
}
