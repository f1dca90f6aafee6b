/** Converts a tool's zod argument schema into the JSON schema object sent to the model. */
import type { ToolDefinition } from '@dsh/contracts'
import { z } from 'zod'

/** JSON schema of `tool.parameters`, without the `$schema` dialect marker. */
export function toolJsonSchema(tool: Pick<ToolDefinition, 'parameters'>): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.parameters)
  return schema
}
