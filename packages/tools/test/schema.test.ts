// Tool set and JSON schemas: names, described fields, no $schema marker, strict objects.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { ToolDefinition } from '@dsh/contracts'
import { wireTool } from '@dsh/runtime'
import { coreTools, readTool, ToolProcesses } from '../src/index.ts'

/** The parameters the model sees (the runtime's one conversion). */
const toolJsonSchema = (tool: ToolDefinition): Record<string, unknown> => wireTool(tool).function.parameters

describe('coreTools and their wire schemas', () => {
  it('returns the six tools in order', () => {
    expect(coreTools().map((tool) => tool.name)).toEqual(['read', 'write', 'edit', 'bash', 'glob', 'grep'])
    expect(coreTools()).not.toBe(coreTools())
  })

  it('describes every argument and strips $schema', () => {
    for (const tool of coreTools()) {
      const schema = toolJsonSchema(tool)
      expect(schema).not.toHaveProperty('$schema')
      expect(schema).toMatchObject({ type: 'object', additionalProperties: false })
      const properties: unknown = schema['properties']
      if (typeof properties !== 'object' || properties === null) throw new Error(`${tool.name}: no properties`)
      expect(Object.keys(properties).length).toBeGreaterThan(0)
      for (const [name, property] of Object.entries(properties)) {
        expect(property, `${tool.name}.${name}`).toHaveProperty('description', expect.stringMatching(/\w/))
      }
    }
  })

  it('documents every description verbatim in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    for (const tool of [...coreTools(), ...coreTools({ processes: new ToolProcesses() })]) expect(readme, tool.name).toContain(`> ${tool.description}\n`)
  })

  it('produces the read schema the model sees', () => {
    expect(toolJsonSchema(readTool)).toEqual({
      type: 'object',
      properties: {
        file_path: {
          type: 'string',
          minLength: 1,
          description: 'Path of the file to read, absolute or relative to the working directory.',
        },
        offset: {
          type: 'integer',
          minimum: 1,
          maximum: Number.MAX_SAFE_INTEGER,
          description: 'Line number to start from (1-based). Default: 1.',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: Number.MAX_SAFE_INTEGER,
          description: 'Maximum number of lines to return. Default: 2000.',
        },
        char_offset: {
          type: 'integer',
          minimum: 1,
          maximum: Number.MAX_SAFE_INTEGER,
          description: 'For a line too long to show whole (minified code): return only the line at offset, from this character (1-based), 20000 characters of it.',
        },
      },
      required: ['file_path'],
      additionalProperties: false,
    })
  })
})
