/**
 * Payload schemas of the core session event types (`CoreSessionEventData` in the contracts), checked
 * when a session is loaded, so a hand-edited or foreign line fails with `FILE:LINE: what is wrong`
 * before anything reads it (never as a `TypeError` halfway through a resume). Plugin event types
 * are not checked here: their owners validate what they read. Objects are open (extra fields are
 * kept and ignored), matching how the contracts evolve.
 */
import { z } from 'zod'
import type { CoreSessionEventType } from '@dsh/contracts'

const count = z.number().int().min(0)
const textBlock = z.object({ type: z.literal('text'), text: z.string() })
const toolCallBlock = z.object({ type: z.literal('tool-call'), callId: z.string(), name: z.string(), arguments: z.string() })
const reasoningBlock = z.object({ type: z.literal('reasoning'), text: z.string() })

const source = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user') }),
  z.object({ kind: z.literal('plugin'), plugin: z.string(), form: z.string() }),
  z.object({ kind: z.literal('workspace-instructions'), version: z.number(), plugin: z.string(), changes: z.array(z.unknown()) }),
  z.object({ kind: z.literal('compaction'), checkpointId: z.string(), summarizer: z.enum(['deterministic', 'model']) }),
  z.object({ kind: z.literal('delegation'), parentSession: z.string(), parentCallId: z.string() }),
  z.object({ kind: z.literal('model') }),
  z.object({ kind: z.literal('tool') }),
])

const userMessage = z.object({ id: z.string(), role: z.literal('user'), content: z.array(textBlock), source })
const assistantMessage = z.object({
  id: z.string(),
  role: z.literal('assistant'),
  content: z.array(z.discriminatedUnion('type', [textBlock, toolCallBlock, reasoningBlock])),
  source: z.object({ kind: z.literal('model') }),
})
const toolResultMessage = z.object({
  id: z.string(),
  role: z.literal('tool'),
  callId: z.string(),
  toolName: z.string(),
  isError: z.boolean(),
  content: z.array(textBlock),
  source: z.object({ kind: z.literal('tool') }),
})

const turnStep = { turn: count, step: count }

const corePayloads = {
  'turn/start': z.object({ turn: count }),
  'turn/end': z.object({ turn: count, reason: z.enum(['completed', 'blocked', 'cancelled', 'error', 'max-steps']), error: z.string().optional() }),
  'step/start': z.object(turnStep),
  'step/end': z.object({ ...turnStep, aborted: z.boolean().optional() }),
  'user/message': z.object({ message: userMessage, turn: count.optional(), step: count.optional() }),
  'assistant/message': z.object({ ...turnStep, message: assistantMessage, usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(), interrupted: z.boolean().optional() }),
  'tool/call': z.object({ ...turnStep, callId: z.string(), name: z.string(), arguments: z.string() }),
  'tool/result': z.object({ ...turnStep, message: toolResultMessage }),
  'agent/inbox/spliced': z.object({
    target: z.enum(['next-step', 'next-turn']),
    start: z.number().int(),
    removedIds: z.array(z.string()),
    inserted: z.array(userMessage),
    outcome: z.enum(['claimed', 'canceled', 'interrupted']).optional(),
  }),
  'request/header': z.object({ ...turnStep, model: z.string(), provider: z.string() }),
} satisfies Record<CoreSessionEventType, z.ZodType>

const payloads = new Map<string, z.ZodType>(Object.entries(corePayloads))

/** The schema of a core event type's payload; undefined for types the core does not own. */
export function payloadSchemaOf(type: string): z.ZodType | undefined {
  return payloads.get(type)
}
