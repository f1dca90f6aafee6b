// Tool rows name an MCP tool `server › tool`; other tools keep their names.
import { describe, expect, it } from 'vitest'
import { toolLabel } from '../src/tool-label.ts'

describe('tool label', () => {
  it('shows mcp__server__tool as server › tool', () => {
    expect(toolLabel('mcp__everything__echo')).toBe('everything › echo')
    expect(toolLabel('mcp__my-db__run__query')).toBe('my-db › run__query')
    expect(toolLabel('bash')).toBe('bash')
    expect(toolLabel('mcp_tool_schema')).toBe('mcp_tool_schema')
  })
})
