/**
 * Validation of session file lines: the header and the event envelope. Payloads are owned by
 * their event types and checked where they are read.
 */
import { z } from 'zod'

/** The header line. */
export const sessionHeaderSchema = z.object({
  type: z.literal('session'),
  version: z.number(),
  id: z.string().min(1),
  createdAt: z.string(),
  cwd: z.string(),
  parentSession: z.string().optional(),
  origin: z.literal('subagent').optional(),
  delegationDepth: z.number().int().min(0),
  seedLength: z.number().int().min(0).optional(),
})

const surfaceOpSchema = z.union([z.literal('append'), z.object({ op: z.literal('replace'), start: z.number().int().min(0), end: z.number().int().min(0) })])

/** One event line. */
export const sessionEventSchema = z.object({
  type: z.string().min(1),
  seq: z.number().int().positive(),
  time: z.string(),
  data: z.unknown(),
  surfaceOp: surfaceOpSchema.optional(),
  sourceEventSeqs: z.array(z.number().int()).optional(),
})

/** First problem of a failed parse as `path: message`. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  if (issue === undefined) return 'invalid'
  return issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`
}
