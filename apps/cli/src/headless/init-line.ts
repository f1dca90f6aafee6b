/**
 * The `system/init` line: the session, its model, tools, roots and permission mode, as they are
 * when the run starts (after `--add-dir` directories were granted, before the model is called).
 */
import type { Agent } from '@dsh/runtime'
import type { AgentSetup } from '../agent-setup.ts'
import { version } from '../version.ts'
import { STREAM_JSON_SCHEMA_VERSION, type InitLine, type RootLine } from './stream-json-types.ts'

function rootsOf(setup: AgentSetup, agent: Agent): RootLine[] {
  const primary: RootLine = { path: agent.handle.cwd, state: 'primary' }
  const service = setup.host.ctx.get('workspaceRoots')
  if (service === undefined) return [primary]
  return [primary, ...service.session(agent.session).list().roots.map((root) => ({ path: root.path, state: root.state }))]
}

/** The init line of `agent`'s run. */
export function initLine(setup: AgentSetup, agent: Agent): InitLine {
  return {
    type: 'system/init',
    session_id: agent.session.id,
    cwd: agent.handle.cwd,
    model: agent.provider.model,
    tools: setup.host.tools.list().map((tool) => tool.name),
    // dsh has no MCP client yet: the list is there, empty, so readers need no change when it comes.
    mcp_servers: [],
    roots: rootsOf(setup, agent),
    permission_mode: setup.sandbox.mode,
    dsh_version: version,
    schema_version: STREAM_JSON_SCHEMA_VERSION,
  }
}
