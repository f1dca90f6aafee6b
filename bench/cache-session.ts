/**
 * The workload of `npm run bench:cache`: a repository with nested instruction files, an additional
 * root, maintainer documents at the workspace level, and the scripted answers of a 12-turn session
 * (3–6 tool steps per turn, reasoning on every answer) for the testkit's DeepSeek imitation.
 * Requests without tools (a judge or a summary) get a short answer and leave the plan alone.
 */
import type { DeepSeekAnswer, DeepSeekRequestView, TreeSpec } from '@dsh/testkit'

/** Turns of the session. */
export const TURNS = 12

/** Tool steps of turn `turn` (1-based): 3, 4, 5, 6, 3, … */
export const toolStepsOf = (turn: number): number => 3 + ((turn - 1) % 4)

/** The prompt of turn `turn`. */
export const promptOf = (turn: number): string => `Turn ${turn}: look at packages/p${turn % 4} and the shared library, then report what you find.`

const instructions = (scope: string): string => `# ${scope}\n\n- Keep functions small and named for what they do.\n- Tests live next to the code in ${scope}.\n`

/** The files of the bench tree: `repo/` (the cwd) and `shared/` (the additional root). */
export function benchTree(): TreeSpec {
  const spec: Record<string, string | null> = {
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/AGENTS.md': instructions('the repository'),
    'repo/.dsh-maintainer-doc-guard/plan.md': '# Plan\n\n1. Survey the packages.\n2. Report findings per package.\n',
    'repo/.dsh-maintainer-doc-guard/conventions.md': '# Conventions\n\n- Never rename public exports.\n- Report in plain sentences.\n',
    'shared/AGENTS.md': instructions('the shared library'),
    'shared/lib/util.ts': 'export const util = (x: number): number => x + 1\n',
  }
  for (let p = 0; p < 4; p++) {
    spec[`repo/packages/p${p}/AGENTS.md`] = instructions(`package p${p}`)
    spec[`repo/packages/p${p}/src/deep/AGENTS.md`] = instructions(`package p${p} deep sources`)
    for (let f = 0; f < 6; f++) spec[`repo/packages/p${p}/src/deep/file${f}.ts`] = `export const value${p}${f} = ${p * 10 + f}\n`
  }
  return spec
}

/** The tool call of step `step` (0-based) of turn `turn`. */
function toolCallOf(turn: number, step: number): { readonly name: string; readonly arguments: string } {
  const pkg = `packages/p${turn % 4}`
  switch (step % 4) {
    case 0:
      return { name: 'read', arguments: `{"file_path": "${pkg}/src/deep/file${step % 6}.ts"}` }
    case 1:
      return { name: 'glob', arguments: `{"pattern":"${pkg}/**/*.ts"}` }
    case 2:
      return { name: 'read', arguments: `{"file_path":"../shared/lib/util.ts"}` }
    default:
      return { name: 'grep', arguments: `{"pattern": "value", "path": "${pkg}"}` }
  }
}

/** Which turn a request belongs to and how many answers it already has: read from its messages. */
function positionOf(body: Readonly<Record<string, unknown>>): { readonly turn: number; readonly answered: number } | undefined {
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- a request body dsh sent; both fields are checked before use
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown; content?: unknown }[]) : []
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]
    const match = message?.role === 'user' && typeof message.content === 'string' ? /^Turn (\d+): /.exec(message.content) : null
    if (match?.[1] === undefined) continue
    const answered = messages.slice(index + 1).filter((later) => later.role === 'assistant').length
    return { turn: Number(match[1]), answered }
  }
  return undefined
}

/** The scripted answer for a request. */
export function benchAnswer(request: DeepSeekRequestView): DeepSeekAnswer {
  const tools = Array.isArray(request.body.tools) && request.body.tools.length > 0
  const position = positionOf(request.body)
  if (!tools || position === undefined) return { reasoning: 'A short side question; answer briefly.', text: 'Yes.' }
  const { turn, answered } = position
  const reasoning = `Turn ${turn}, step ${answered + 1}: I have looked at ${answered} things so far; next I ${answered < toolStepsOf(turn) ? 'need one more look' : 'can answer'}.`
  if (answered < toolStepsOf(turn)) return { reasoning, text: answered === 0 ? 'Let me look.' : '', toolCalls: [toolCallOf(turn, answered)] }
  return { reasoning, text: `Turn ${turn}: the package holds small constant modules; nothing needs changing.` }
}
