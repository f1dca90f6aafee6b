/**
 * Model-facing names of server tools: `mcp__<server>__<tool>`, every character outside
 * `[A-Za-z0-9_-]` replaced by `_`, at most 64 characters (a longer name keeps its first 55 and
 * ends in `_` and 8 hex digits of the SHA-256 of the full name). Names are assigned over the
 * sorted list (server name, then tool name), so a collision is resolved the same way every time:
 * the later tool gets `_2`, `_3`, ….
 */
import { createHash } from 'node:crypto'

/** Longest name model APIs accept. */
export const MAX_TOOL_NAME = 64

const sanitise = (text: string): string => text.replace(/[^A-Za-z0-9_-]/g, '_')

/** The name before collisions are resolved. */
export function baseToolName(server: string, tool: string): string {
  const name = `mcp__${sanitise(server)}__${sanitise(tool)}`
  if (name.length <= MAX_TOOL_NAME) return name
  const digest = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8)
  return `${name.slice(0, MAX_TOOL_NAME - 9)}_${digest}`
}

/** The prefix every tool of a server shares (what permission rules such as `mcp__github` name). */
export function serverPrefix(server: string): string {
  return `mcp__${sanitise(server)}`
}

/** A server tool to name. */
export interface NamedTool {
  readonly server: string
  readonly tool: string
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Sorts by server then tool and assigns unique names; `taken` are names already in use (core tools). */
export function assignToolNames<T extends NamedTool>(tools: readonly T[], taken: ReadonlySet<string> = new Set()): (T & { readonly modelName: string })[] {
  const sorted = tools.toSorted((a, b) => compare(a.server, b.server) || compare(a.tool, b.tool))
  const used = new Set(taken)
  return sorted.map((item) => {
    const base = baseToolName(item.server, item.tool)
    let name = base
    for (let n = 2; used.has(name); n += 1) name = `${base.slice(0, MAX_TOOL_NAME - String(n).length - 1)}_${n}`
    used.add(name)
    return { ...item, modelName: name }
  })
}
