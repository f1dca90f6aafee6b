/** The config file's `mcp` section and its defaults. */
import { z } from 'zod'
import type { McpLimits } from './types.ts'

/** Schema of the `mcp` section. */
export const mcpSectionSchema = z.strictObject({
  servers: z.record(z.string(), z.unknown()).optional().describe('Servers in the .mcp.json entry shape: { "<name>": { command, args, env, cwd } | { type: "http", url, headers } }, each with optional enabledTools / disabledTools'),
  startupTimeoutMs: z.number().int().positive().optional().describe('How long a server may take to start and list its tools, in milliseconds; default 60000'),
  callTimeoutMs: z.number().int().positive().optional().describe('How long one MCP tool call may go without a result or progress, in milliseconds; default 600000'),
  maxOutputChars: z.number().int().positive().optional().describe('Characters of one MCP tool result the model sees; default 100000'),
  deferAboveTools: z.number().int().min(0).optional().describe('Above this many MCP tools in all, the model gets names and one-line descriptions plus mcp_tool_schema; default 40'),
})

/** A validated `mcp` section. */
export type McpSection = z.infer<typeof mcpSectionSchema>

/** The limits with defaults applied. */
export function mcpLimits(section: McpSection | undefined): McpLimits {
  return {
    startupTimeoutMs: section?.startupTimeoutMs ?? 60_000,
    callTimeoutMs: section?.callTimeoutMs ?? 600_000,
    maxOutputChars: section?.maxOutputChars ?? 100_000,
    deferAboveTools: section?.deferAboveTools ?? 40,
  }
}
