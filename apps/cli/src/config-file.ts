/**
 * The `--config FILE` YAML: one top-level key per plugin plus `model`. Unknown keys and wrong
 * types are one-line errors naming the file and the key; renamed keys are still read under their
 * old names, with a warning (`config-deprecations.ts`).
 */
import { errnoCode, errorMessage } from '@dsh/runtime'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { z } from 'zod'
import { SectionSchema as multiRootWorkspaceSchema } from '@dsh/multi-root-workspace'
import { usageError } from './cli-error.ts'
import { renameDeprecatedKeys } from './config-deprecations.ts'
import { workspaceContextSectionSchema } from './instruction-config.ts'
import { Config as maintainerDocGuardSchema } from '@dsh/maintainer-doc-guard'
import { permissionsSectionSchema, sandboxSectionSchema } from '@dsh/permissions'
import { mcpSectionSchema } from '@dsh/mcp'
import { SkillsSectionSchema } from '@dsh/skills'

const modelSchema = z.strictObject({
  spec: z.string().min(1).optional().describe('Model spec: deepseek:<model>, openai:<model> or scripted:<file>'),
  baseUrl: z.string().url().optional().describe('Base URL of an OpenAI-compatible endpoint'),
  apiKeyEnv: z.string().min(1).optional().describe('Environment variable holding the API key'),
  connectTimeoutMs: z.number().int().positive().optional().describe('How long each model request waits for the response to start (connect and first byte), in milliseconds; default 30000'),
  idleTimeoutMs: z.number().int().positive().optional().describe('Longest time a streamed answer may go without progress (keep-alive comments and empty chunks are none), in milliseconds; default 120000'),
  callTimeoutMs: z.number().int().positive().optional().describe('Longest time one model call may take in all, retries and their waits included, in milliseconds; default 1800000'),
  maxRetries: z.number().int().min(0).max(10).optional().describe('Retries on 429/5xx/network errors and broken streams'),
  contextWindow: z.number().int().positive().optional().describe('Context window in tokens'),
  thinking: z.enum(['enabled', 'disabled']).optional().describe('DeepSeek thinking mode, sent as thinking: {type} (default: not sent; DeepSeek thinks by default)'),
  reasoningEffort: z.enum(['low', 'high', 'max']).optional().describe('DeepSeek reasoning_effort (default: not sent; DeepSeek uses high)'),
  autoCompactShare: z.number().gt(0).max(1).optional().describe('Share of the context window that triggers automatic compaction'),
  prices: z
    .strictObject({
      inputPerMillion: z.number().min(0).describe('Price of a million prompt tokens not served from the cache'),
      outputPerMillion: z.number().min(0).describe('Price of a million completion tokens'),
      cacheHitPerMillion: z.number().min(0).optional().describe('Price of a million prompt tokens served from the cache (default: inputPerMillion)'),
      currency: z.string().min(1).max(4).optional().describe('Shown before the cost (default $)'),
    })
    .optional()
    .describe('Model prices per million tokens; dsh chat shows the session cost only when they are set'),
})

const agentSchema = z.strictObject({
  maxSubagentDepth: z.number().int().min(0).max(8).optional().describe('How deep subagents may delegate (0 disables the subagent tool)'),
  runCodeTimeoutMs: z.number().int().positive().max(600_000).optional().describe('Default time limit of run_code snippets'),
  codeMode: z.boolean().optional().describe('Offer the run_code tool (default true)'),
  todo: z.boolean().optional().describe('Offer the todo_write tool, the task checklist front ends show (default true)'),
  attachMentions: z.boolean().optional().describe('Send the contents of the files a prompt @-mentions with it, read through the read tool (default true)'),
  webFetch: z.boolean().optional().describe('Offer the web_fetch tool (default true; never with sandbox.network: false)'),
  webFetchTimeoutMs: z.number().int().positive().max(300_000).optional().describe('Deadline of one web_fetch download'),
  webFetchPrivateNetwork: z.boolean().optional().describe('Let web_fetch reach loopback and private addresses (default false)'),
})

const checkpointsSchema = z.strictObject({
  enabled: z.boolean().optional().describe('Keep checkpoints for dsh rewind (default true)'),
  maxFileBytes: z.number().int().positive().optional().describe('Largest file whose earlier content is kept (default 5 MiB)'),
  maxBytes: z.number().int().positive().optional().describe('Checkpoint bytes one session may store (default 1 GiB)'),
})

/** Schema of the whole file. */
export const configFileSchema = z.strictObject({
  model: modelSchema.optional(),
  agent: agentSchema.optional(),
  workspaceContext: workspaceContextSectionSchema.optional(),
  multiRootWorkspace: multiRootWorkspaceSchema.optional(),
  maintainerDocGuard: maintainerDocGuardSchema.optional().describe('maintainer-doc-guard (off unless enabled: true)'),
  permissions: permissionsSectionSchema.optional().describe('Permission mode and allow/deny rules (README "Safety")'),
  sandbox: sandboxSectionSchema.optional().describe('The shell sandbox (README "Safety")'),
  // Checked entry by entry by @dsh/hooks (one line per bad entry, the others still load).
  hooks: z.record(z.string(), z.unknown()).optional().describe('Hooks in Claude Code\'s shape, plus maxStopContinues (README "Hooks")'),
  mcp: mcpSectionSchema.optional().describe('MCP servers and their limits (README "MCP servers")'),
  skills: SkillsSectionSchema.optional().describe('Agent Skills and the catalog budget (README "Skills and custom commands")'),
  checkpoints: checkpointsSchema.optional().describe('Checkpoints and dsh rewind (README "Undo a turn")'),
})

/** A validated config file. */
export type ConfigFile = z.infer<typeof configFileSchema>

/** Validates a parsed value. */
export function parseConfig(value: unknown, file: string): ConfigFile {
  const result = configFileSchema.safeParse(value ?? {})
  if (result.success) return result.data
  const issue = result.error.issues[0]
  if (issue === undefined) throw usageError(`${file}: invalid config`)
  const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key].join('.')) : [issue.path.join('.')]
  const what = issue.code === 'unrecognized_keys' ? `unknown key${keys.length > 1 ? 's' : ''}` : issue.message
  throw usageError(`${file}: ${keys.join(', ') || '(top level)'}: ${what}`)
}

/** Reads and validates a config file; `warn` gets one line per deprecated key it still reads. */
export function loadConfigFile(file: string, warn: (line: string) => void): ConfigFile {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw usageError(`${file}: cannot read config (${errnoCode(error) ?? errorMessage(error)})`)
  }
  let value: unknown
  try {
    // logLevel 'error': a warning (an unknown tag) is not printed by the yaml package to stderr with the file's raw text; errors still throw.
    value = parse(text, { logLevel: 'error' })
  } catch (error) {
    throw usageError(`${file}: invalid YAML (${errorMessage(error).split('\n')[0]})`)
  }
  return parseConfig(renameDeprecatedKeys(value, file, warn), file)
}
