/**
 * Shapes of session event lines, checked for every line when a session is loaded, so a
 * hand-edited or foreign line fails with `FILE:LINE: what is wrong` before anything reads it
 * (never as a `TypeError` halfway through a resume): the envelope of every event, and the payload
 * of the core event types (`CoreSessionEventData` in the contracts). Plugin event types get the
 * envelope check only; their owners validate what they read. Objects are open (extra fields are
 * kept and ignored), matching how the contracts evolve.
 */
import type { CoreSessionEventType } from '@dsh/contracts'
import { shapeChecker, type Shape } from './shape-check.ts'

const text: Shape = { object: { type: { literal: 'text' }, text: 'string' } }

const source: Shape = {
  tagged: 'kind',
  cases: {
    user: {},
    plugin: { plugin: 'string', form: 'string' },
    'workspace-instructions': { version: 'number', plugin: 'string', changes: { array: 'unknown' } },
    compaction: { checkpointId: 'string', summarizer: { oneOf: ['deterministic', 'model'] } },
    delegation: { parentSession: 'string', parentCallId: 'string' },
    model: {},
    tool: {},
  },
}

const userMessage: Shape = { object: { id: 'string', role: { literal: 'user' }, content: { array: text }, source } }

const assistantMessage: Shape = {
  object: {
    id: 'string',
    role: { literal: 'assistant' },
    content: {
      array: {
        tagged: 'type',
        cases: { text: { text: 'string' }, reasoning: { text: 'string' }, 'tool-call': { callId: 'string', name: 'string', arguments: 'string' } },
      },
    },
    source: { object: { kind: { literal: 'model' } } },
  },
}

const toolResultMessage: Shape = {
  object: { id: 'string', role: { literal: 'tool' }, callId: 'string', toolName: 'string', isError: 'boolean', content: { array: text }, source: { object: { kind: { literal: 'tool' } } } },
}

const surfaceOp: Shape = {
  optional: { either: [{ literal: 'append' }, { object: { op: { literal: 'replace' }, start: 'count', end: 'count', reinstate: { optional: { array: 'count' } } } }], describe: '"append" or { op: "replace", start, end, reinstate? }' },
}

/** The envelope of every event line (whether a replace range fits the surface is checked by the surface). */
const eventEnvelope: Shape = {
  object: { type: 'string', seq: 'count', time: 'string', data: 'unknown', surfaceOp, sourceEventSeqs: { optional: { array: 'integer' } } },
}

const corePayloads = {
  'turn/start': { object: { turn: 'count' } },
  'turn/end': { object: { turn: 'count', reason: { oneOf: ['completed', 'blocked', 'cancelled', 'error', 'max-steps'] }, error: { optional: 'string' } } },
  'step/start': { object: { turn: 'count', step: 'count' } },
  'step/end': { object: { turn: 'count', step: 'count', aborted: { optional: 'boolean' } } },
  'user/message': { object: { message: userMessage, turn: { optional: 'count' }, step: { optional: 'count' } } },
  'assistant/message': {
    object: { turn: 'count', step: 'count', message: assistantMessage, usage: { optional: { object: { inputTokens: 'number', outputTokens: 'number' } } }, interrupted: { optional: 'boolean' } },
  },
  'tool/call': { object: { turn: 'count', step: 'count', callId: 'string', name: 'string', arguments: 'string' } },
  'tool/result': { object: { turn: 'count', step: 'count', message: toolResultMessage } },
  'agent/inbox/spliced': {
    object: { target: { oneOf: ['next-step', 'next-turn'] }, start: 'integer', removedIds: { array: 'string' }, inserted: { array: userMessage }, outcome: { optional: { oneOf: ['claimed', 'canceled', 'interrupted'] } } },
  },
  'request/header': { object: { turn: 'count', step: 'count', model: 'string', provider: 'string', baseUrl: { optional: 'string' } } },
  'model/retry': { object: { turn: 'count', step: 'count', attempt: 'count', maxAttempts: 'count', delayMs: 'number', code: 'string', status: { optional: 'integer' }, detail: 'string', discarded: { optional: 'boolean' } } },
  'tool/permission': {
    object: {
      callId: 'string',
      tool: 'string',
      decision: { oneOf: ['allow', 'deny'] },
      by: { oneOf: ['rule', 'mode', 'answer'] },
      mode: { oneOf: ['read-only', 'ask', 'auto-edit', 'full-auto', 'danger-full-access'] },
      rule: { optional: 'string' },
      remember: { optional: 'string' },
      rememberAlso: { optional: { array: 'string' } },
      note: { optional: 'string' },
    },
  },
} satisfies Record<CoreSessionEventType, Shape>

/** Checks the envelope of an event line: the first problem, or undefined. */
export const checkEnvelope = shapeChecker(eventEnvelope)

const payloadCheckers = new Map(Object.entries(corePayloads).map(([type, shape]) => [type, shapeChecker(shape)]))

/** Checks the payload of a core event type (paths start at `data`); undefined when it fits or the type is not a core one. */
export function checkPayload(type: string, data: unknown): string | undefined {
  return payloadCheckers.get(type)?.(data, 'data')
}
