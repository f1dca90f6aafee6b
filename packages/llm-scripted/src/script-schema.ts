/**
 * The scripted-model file format (ARCHITECTURE §4) and its validation.
 *
 * `{ "responses": [ { "text": "…" } | { "toolCalls": [ { "name": "read", "arguments": { … } } ], "text"?: "…" } ] }`
 * Optional extras per response: `reasoning` (streamed as reasoning), `delayMs` (pause before each
 * streamed piece, for cancellation demos), `holdAfter` (after that many text pieces the stream
 * holds until it is cancelled, or until `releaseFile` exists), `usage`.
 */
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { ScriptError } from './script-error.ts'

const toolCallSchema = z.strictObject({
  name: z.string().min(1).describe('Tool name'),
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).default({}).describe('Arguments object, or raw argument text to send verbatim'),
  id: z.string().min(1).optional().describe('Call id; generated when absent'),
})

const responseSchema = z.strictObject({
  text: z.string().optional(),
  reasoning: z.string().optional(),
  toolCalls: z.array(toolCallSchema).optional(),
  delayMs: z.number().int().min(0).max(60_000).optional(),
  holdAfter: z.number().int().min(0).optional().describe('Text pieces streamed before the stream holds (until cancelled, or until releaseFile exists)'),
  releaseFile: z.string().min(1).optional().describe('Ends a hold once this file exists; without it only a cancel ends the hold'),
  usage: z.strictObject({ inputTokens: z.number().int().min(0), outputTokens: z.number().int().min(0), cacheHitTokens: z.number().int().min(0).optional() }).optional(),
})

const describe = (error: unknown): string => (error instanceof Error ? ('code' in error && typeof error.code === 'string' ? error.code : error.message) : String(error))

/** Schema of a whole script. */
export const scriptSchema = z.strictObject({ responses: z.array(responseSchema) })

/** A parsed script. */
export type ModelScript = z.infer<typeof scriptSchema>
/** One scripted response. */
export type ScriptedResponse = ModelScript['responses'][number]

/** Validates a script value; `where` names its origin in errors. */
export function parseScript(value: unknown, where: string): ModelScript {
  const result = scriptSchema.safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]
    const path = issue === undefined ? '' : issue.path.join('.')
    throw new ScriptError(`${where}: invalid model script at "${path}": ${issue?.message ?? 'invalid'}`)
  }
  return result.data
}

/** Reads and validates a script file. */
export function loadScript(file: string): ModelScript {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ScriptError(`${file}: cannot read model script (${describe(error)})`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ScriptError(`${file}: model script is not valid JSON (${describe(error)})`)
  }
  return parseScript(value, file)
}
