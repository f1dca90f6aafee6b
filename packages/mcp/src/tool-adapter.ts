/**
 * A server tool as a host tool: its model name, the server's description and input schema (or,
 * when schemas are deferred, a one-line description and an open schema), and an `execute` that
 * calls the server and turns the result into the model's text. Failures the model should see are
 * error results with a way forward: an `isError` result, a timeout, a server that went away
 * (quoting the last lines of its stderr).
 */
import type { Tool } from '@modelcontextprotocol/client'
import { z } from 'zod'
import type { ToolDefinition } from '@dsh/contracts'
import { errorMessage } from '@dsh/runtime'
import { resultText } from './result-text.ts'
import { ServerUnavailableError, type ServerConnection } from './server-connection.ts'

/** What the adapter needs to build one tool. */
export interface AdaptedTool {
  readonly modelName: string
  readonly tool: Tool
  readonly connection: ServerConnection
  /** The checked wire schema. */
  readonly parameters: Record<string, unknown>
  /** Offer only the name and a one-line description (the schema comes from `mcp_tool_schema`). */
  readonly deferred: boolean
  readonly maxOutputChars: number
}

/** The schema a deferred tool is offered with. */
export const DEFERRED_PARAMETERS: Readonly<Record<string, unknown>> = { type: 'object', additionalProperties: true }

/** The first line of a description, at most 160 characters. */
export function oneLine(description: string | undefined): string {
  const first = (description ?? '').trim().split('\n')[0] ?? ''
  return first.length > 160 ? `${first.slice(0, 159)}…` : first
}

function failureText(modelName: string, error: unknown, connection: ServerConnection): string {
  const server = connection.entry.name
  if (error instanceof ServerUnavailableError) {
    const tail = connection.stderr.lines(5)
    const quoted = tail.length === 0 ? '' : `\nLast lines of its stderr:\n${tail.map((line) => `  ${line}`).join('\n')}`
    return `The MCP server "${server}" is not available (${error.message}), so ${modelName} did not run.${quoted}\nTry the call once more (dsh restarts the server once); if it fails again, continue without this tool and tell the user.`
  }
  const message = errorMessage(error)
  if (/timed out/i.test(message)) return `The MCP server "${server}" did not answer ${modelName} in time (${message}). Retry with a smaller request or continue without it.`
  return `The MCP server "${server}" failed ${modelName}: ${message}. Check the arguments against the tool's schema, or continue without it.`
}

/** The host tool of one server tool. */
export function adaptTool(adapted: AdaptedTool): ToolDefinition<Record<string, unknown>> {
  const { tool, connection } = adapted
  const description = adapted.deferred ? `${oneLine(tool.description)} (MCP ${connection.entry.name}; get its parameters with mcp_tool_schema first)` : (tool.description ?? '')
  return {
    name: adapted.modelName,
    description,
    parameters: z.record(z.string(), z.unknown()),
    wireParameters: adapted.deferred ? DEFERRED_PARAMETERS : adapted.parameters,
    ...(tool.annotations?.readOnlyHint === true ? { readOnly: true } : {}),
    origin: { server: connection.entry.name, tool: tool.name },
    async execute(args, run) {
      try {
        const result = await connection.call(tool.name, args, { signal: run.signal })
        const text = resultText(result, adapted.maxOutputChars)
        if (result.isError === true) return { isError: true, content: `${text}\n(The MCP tool ${adapted.modelName} reported an error; fix the arguments or try another approach.)` }
        return { content: text }
      } catch (error) {
        // Cancellation ends the call as the pipeline expects; everything else is the model's to see.
        if (run.signal.aborted) throw error
        return { isError: true, content: failureText(adapted.modelName, error, connection) }
      }
    },
  }
}
