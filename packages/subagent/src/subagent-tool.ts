/**
 * The `subagent` tool (ARCHITECTURE §3.9): delegates a self-contained task to a child agent and
 * returns the child's final answer as the tool result. The delegation depth is limited; a child
 * that did not complete its turn becomes an error result that says why.
 */
import type { ToolDefinition, ToolOutput } from '@dsh/contracts'
import { z } from 'zod'
import type { ChildResult, StartChild } from './child-request.ts'

/** Options of {@link createSubagentTool}. */
export interface SubagentToolOptions {
  /** Deepest allowed child: a session at depth `d` may delegate while `d + 1 <= maxDepth` (default 2). */
  readonly maxDepth?: number
  /** Starts and runs one child (see `createChildStarter`). */
  readonly startChild: StartChild
}

const argumentsSchema = z.object({
  prompt: z
    .string()
    .min(1)
    .describe('The complete task for the subagent. It does not see this conversation: include the goal, the relevant paths and facts, and what its final answer should contain.'),
  description: z.string().max(200).optional().describe('A short label for the task (3 to 7 words), shown to the subagent with its task.'),
})

/** Arguments of `subagent`. */
export type SubagentArgs = z.infer<typeof argumentsSchema>

function description(maxDepth: number): string {
  return [
    'Delegate a self-contained task to a subagent: a fresh agent with the same tools and working directory but none of this conversation. It works on its own until it is done; its final answer is returned as this tool\'s result.',
    'Use it for independent investigations or side tasks whose intermediate steps you do not need in your own context. Write the prompt so it can be understood without this conversation, and say what the answer should contain.',
    `Delegation chains are limited to a depth of ${maxDepth} (a subagent of a subagent is depth 2); a call beyond that fails.`,
  ].join('\n\n')
}

function footer(child: ChildResult): string {
  return `Subagent session: ${child.sessionId}`
}

function lastWords(child: ChildResult): string {
  return child.finalText === '' ? '' : `\n\nIts last message:\n${child.finalText}`
}

/** The tool output for a finished child. */
export function formatChild(child: ChildResult): ToolOutput {
  const meta = { childSession: child.sessionId, reason: child.reason }
  if (child.reason === 'completed') {
    const answer = child.finalText === '' ? '(The subagent finished without writing a final answer.)' : child.finalText
    return { content: `${answer}\n\n${footer(child)}`, meta }
  }
  const why: Record<Exclude<ChildResult['reason'], 'completed'>, string> = {
    error: `The subagent failed: ${child.error ?? 'unknown error'}. Do the task directly, or delegate it again with a narrower prompt.`,
    cancelled: 'The subagent was cancelled before it finished, so there is no answer.',
    'max-steps': 'The subagent reached its step limit before finishing. Split the task into smaller delegations, or do it directly.',
    blocked: 'The subagent was blocked before its first step (a plugin rejected the delegation). Do the task directly.',
  }
  return { isError: true, content: `${why[child.reason]}${lastWords(child)}\n\n${footer(child)}`, meta }
}

/** Creates the `subagent` tool. */
export function createSubagentTool(options: SubagentToolOptions): ToolDefinition<SubagentArgs> {
  const maxDepth = options.maxDepth ?? 2
  if (!Number.isInteger(maxDepth) || maxDepth < 0) throw new RangeError(`createSubagentTool: maxDepth must be a non-negative integer (got ${maxDepth})`)
  return {
    name: 'subagent',
    description: description(maxDepth),
    parameters: argumentsSchema,
    async execute(args, run) {
      const parent = run.execution.agent
      if (parent === undefined) {
        return { isError: true, content: 'The subagent tool only works inside an agent session. Do the task directly with the other tools.' }
      }
      if (parent.delegationDepth + 1 > maxDepth) {
        return {
          isError: true,
          content: `Cannot start a subagent: this session is at delegation depth ${parent.delegationDepth} and the limit is ${maxDepth}. Do this work directly with your own tools.`,
        }
      }
      const child = await options.startChild({
        parent,
        prompt: args.prompt,
        signal: run.signal,
        callId: run.execution.callId,
        ...(args.description === undefined ? {} : { description: args.description }),
      })
      return formatChild(child)
    },
  }
}
