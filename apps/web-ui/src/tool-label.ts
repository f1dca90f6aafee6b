/** A tool name as rows show it: an MCP tool's `mcp__server__tool` as `server › tool`, others as they are. */
export function toolLabel(name: string): string {
  const match = /^mcp__(.+?)__(.+)$/.exec(name)
  return match === null ? name : `${match[1] ?? ''} › ${match[2] ?? ''}`
}
