/**
 * Validation of the session header line (event lines are checked by `event-schema.ts`).
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

/** First problem of a failed parse as `path: message`. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  if (issue === undefined) return 'invalid'
  return issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`
}
