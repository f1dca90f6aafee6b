/**
 * Whether one server tool is offered: `enabledTools` / `disabledTools` of its server, then its
 * input schema (schema-check.ts).
 */
import type { Tool } from '@modelcontextprotocol/client'
import { wireParameters } from './schema-check.ts'
import type { ServerEntry } from './types.ts'

/** The verdict on one tool. */
export type ToolVerdict = { readonly kind: 'offered'; readonly parameters: Record<string, unknown> } | { readonly kind: 'filtered' } | { readonly kind: 'rejected'; readonly reason: string }

/** Decides one tool. */
export function schemaProblem(entry: ServerEntry, tool: Tool): ToolVerdict {
  const { enabledTools, disabledTools } = entry.options
  if (enabledTools !== undefined && !enabledTools.includes(tool.name)) return { kind: 'filtered' }
  if (disabledTools?.includes(tool.name) === true) return { kind: 'filtered' }
  const checked = wireParameters(tool.inputSchema)
  return checked.ok ? { kind: 'offered', parameters: checked.parameters } : { kind: 'rejected', reason: checked.reason }
}
