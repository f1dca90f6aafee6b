/**
 * `mcp_tool_schema`: offered instead of the full schemas when many MCP tools are configured
 * (above `mcp.deferAboveTools`); returns one tool's description and input schema so the model can
 * then call it by its `mcp__server__tool` name.
 */
import { z } from 'zod'
import type { ToolDefinition } from '@dsh/contracts'

/** The tool's name. */
export const TOOL_SCHEMA_TOOL = 'mcp_tool_schema'

const args = z.strictObject({ name: z.string().min(1).describe('The tool name, e.g. mcp__github__create_issue') })

/** Builds the tool over a lookup of the current tools (model name → description and schema). */
export function createToolSchemaTool(lookup: (name: string) => { readonly description: string; readonly parameters: Record<string, unknown> } | undefined, names: () => readonly string[]): ToolDefinition<z.infer<typeof args>> {
  return {
    name: TOOL_SCHEMA_TOOL,
    description: 'Returns the full description and JSON input schema of an MCP tool (mcp__<server>__<tool>). Call it before the first call of a tool whose parameters you do not know.',
    parameters: args,
    readOnly: true,
    execute(input) {
      const found = lookup(input.name)
      if (found === undefined) {
        const known = names()
        return Promise.resolve({ isError: true, content: `No MCP tool is named ${input.name}. Known MCP tools: ${known.length === 0 ? '(none)' : known.join(', ')}.` })
      }
      return Promise.resolve({ content: `${input.name}\n\n${found.description}\n\nInput schema:\n${JSON.stringify(found.parameters, null, 2)}` })
    },
  }
}
