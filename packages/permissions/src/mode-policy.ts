/**
 * What each permission mode says about a tool call before rules are consulted (the mode × tool
 * table of the README). Tools fall in five classes: shell (`bash`, `run_code`), writes (`write`,
 * `edit`), the network (`web_fetch`: what it sends leaves the machine, so every mode but
 * full-auto asks), MCP server tools (`mcp__<server>__<tool>`) not annotated read-only, and the rest
 * (reads, searches, subagents, plugin tools, read-only MCP tools), which every mode allows.
 */
import type { PermissionMode } from '@dsh/contracts'

/** The class of a tool for the mode table. */
export type ToolClass = 'shell' | 'write' | 'network' | 'mcp' | 'other'

/** A mode's verdict kind. */
export type ModeVerdict = 'allow' | 'ask' | 'deny'

/** Every mode, mildest first. */
export const permissionModes: readonly PermissionMode[] = ['read-only', 'ask', 'auto-edit', 'full-auto', 'danger-full-access']

/** True for a known mode name. */
export function isPermissionMode(value: string): value is PermissionMode {
  return (permissionModes as readonly string[]).includes(value)
}

/** The class of a tool by name; `readOnly` is the tool's own declaration (an MCP `readOnlyHint`). */
export function toolClass(tool: string, readOnly = false): ToolClass {
  if (tool.startsWith('mcp__')) return readOnly ? 'other' : 'mcp'
  if (tool === 'bash' || tool === 'run_code') return 'shell'
  if (tool === 'write' || tool === 'edit') return 'write'
  if (tool === 'web_fetch') return 'network'
  return 'other'
}

/** The mode's verdict; `insideCwd` tells whether a write's path lies inside the working directory. */
export function modeVerdict(mode: PermissionMode, tool: ToolClass, insideCwd: boolean): ModeVerdict {
  if (tool === 'other') return 'allow'
  if (tool === 'mcp') return mode === 'read-only' ? 'deny' : mode === 'full-auto' || mode === 'danger-full-access' ? 'allow' : 'ask'
  if (tool === 'network') return mode === 'full-auto' || mode === 'danger-full-access' ? 'allow' : 'ask'
  switch (mode) {
    case 'read-only':
      return tool === 'shell' ? 'allow' : 'deny'
    case 'ask':
      return tool === 'write' && insideCwd ? 'allow' : 'ask'
    case 'auto-edit':
      return tool === 'write' ? 'allow' : 'ask'
    case 'full-auto':
    case 'danger-full-access':
      return 'allow'
    default: {
      const unreachable: never = mode
      throw new Error(`unknown permission mode ${JSON.stringify(unreachable)}`)
    }
  }
}

/** Whether shell commands of the mode run in the sandbox, and with what writable. */
export function sandboxOf(mode: PermissionMode): 'roots' | 'read-only' | 'none' {
  if (mode === 'danger-full-access') return 'none'
  return mode === 'read-only' ? 'read-only' : 'roots'
}
