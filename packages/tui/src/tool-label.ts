/**
 * How a tool's name is shown in rows: an MCP tool's model name `mcp__server__tool` as
 * `server › tool` (the server part up to the first `__`); every other name as it is.
 */

/** The label of a tool name. */
export function toolLabel(name: string): string {
  const match = /^mcp__(.+?)__(.+)$/.exec(name)
  return match === null ? name : `${match[1] ?? ''} › ${match[2] ?? ''}`
}
