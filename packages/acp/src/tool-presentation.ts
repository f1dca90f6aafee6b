/**
 * How a tool call looks in the editor: its ACP `kind`, a one-line title, and the absolute
 * locations it works on (in the client's spelling). Unknown tools are `other` with their name as
 * the title; arguments that are not a JSON object give a title without detail and no locations.
 */
import type { ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk'
import type { PathSpelling } from './path-spelling.ts'

/** What the editor shows for one call. */
export interface ToolPresentation {
  readonly kind: ToolKind
  readonly title: string
  readonly locations: ToolCallLocation[]
}

/** Longest title; longer ones are cut with `…`. */
export const maxTitleChars = 120

/** The tool's arguments as an object, or an empty one when they are not a JSON object. */
export function argumentsOf(raw: string): Readonly<Record<string, unknown>> {
  try {
    const value: unknown = JSON.parse(raw)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value)) : {}
  } catch {
    // Malformed arguments (the pipeline reports them to the model): shown without detail.
    return {}
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)

function cut(title: string): string {
  const line = title.replace(/\s+/g, ' ').trim()
  return line.length <= maxTitleChars ? line : `${line.slice(0, maxTitleChars - 1)}…`
}

function at(spelling: PathSpelling, path: string | undefined, line?: unknown): ToolCallLocation[] {
  if (path === undefined) return [{ path: spelling.cwd }]
  return [{ path: spelling.show(path), ...(typeof line === 'number' ? { line } : {}) }]
}

/** The presentation of a call of `name` with raw JSON `rawArguments`. */
export function presentTool(name: string, rawArguments: string, spelling: PathSpelling): ToolPresentation {
  const args = argumentsOf(rawArguments)
  const file = text(args['file_path'])
  switch (name) {
    case 'read':
      return { kind: 'read', title: cut(`Read ${file ?? ''}`), locations: file === undefined ? [] : at(spelling, file, args['offset']) }
    case 'edit':
      return { kind: 'edit', title: cut(`Edit ${file ?? ''}`), locations: file === undefined ? [] : at(spelling, file) }
    case 'write':
      return { kind: 'edit', title: cut(`Write ${file ?? ''}`), locations: file === undefined ? [] : at(spelling, file) }
    case 'grep':
      return { kind: 'search', title: cut(`Search ${JSON.stringify(text(args['pattern']) ?? '')}${text(args['path']) === undefined ? '' : ` in ${text(args['path'])}`}`), locations: at(spelling, text(args['path'])) }
    case 'glob':
      return { kind: 'search', title: cut(`Find files ${text(args['pattern']) ?? ''}${text(args['path']) === undefined ? '' : ` in ${text(args['path'])}`}`), locations: at(spelling, text(args['path'])) }
    case 'bash':
      return { kind: 'execute', title: cut(`Run ${text(args['command']) ?? ''}`), locations: [] }
    case 'run_code':
      return { kind: 'execute', title: 'Run JavaScript (run_code)', locations: [] }
    case 'subagent':
      return { kind: 'think', title: cut(`Delegate: ${text(args['description']) ?? text(args['prompt']) ?? ''}`), locations: [] }
    case 'web_fetch':
      return { kind: 'fetch', title: cut(`Fetch ${text(args['url']) ?? ''}`), locations: [] }
    case 'todo_write':
      // The list itself reaches the editor as the agent plan (`session/update` `plan`).
      return { kind: 'think', title: 'Update the plan', locations: [] }
    default:
      return { kind: 'other', title: cut(name), locations: [] }
  }
}
