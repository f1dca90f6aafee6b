// Claude Code's spellings of agent options: --allowedTools / --disallowedTools lists (commas or
// spaces outside parentheses) are --allow / --deny rules, --max-turns is --max-steps, and a bare
// --model name is DeepSeek's. Unit tests of the folding, then the built binary obeying them.
import { describe, expect, it } from 'vitest'
import { tempTree } from '@dsh/testkit'
import { foldClaudeFlags, splitToolList } from '../src/claude-flags.ts'
import { parseModelSpec } from '../src/model-spec.ts'
import { readRequests, runDsh, writeScript } from './run-dsh.ts'

describe("Claude Code's option spellings", () => {
  it('split tool lists on commas and spaces outside parentheses', () => {
    expect(splitToolList('Bash(git log:*),Read')).toEqual(['Bash(git log:*)', 'Read'])
    expect(splitToolList(' Bash(npm run test, lint)  Edit ,, Write')).toEqual(['Bash(npm run test, lint)', 'Edit', 'Write'])
  })

  it('fold into allow, deny and maxSteps; disagreeing step limits are a usage error', () => {
    expect(foldClaudeFlags({ allow: ['read'], allowedTools: ['Bash(git log:*),Edit'], disallowedTools: ['Bash(rm:*)'], maxSteps: 200, maxTurns: 5 }, 200)).toEqual({ allow: ['read', 'Bash(git log:*)', 'Edit'], deny: ['Bash(rm:*)'], maxSteps: 5 })
    expect(foldClaudeFlags({ maxSteps: 200 }, 200)).toEqual({ maxSteps: 200 })
    expect(() => foldClaudeFlags({ maxSteps: 7, maxTurns: 5 }, 200)).toThrow('--max-turns 5 and --max-steps 7 disagree; give one of them')
  })

  it('read a bare model name as DeepSeek\'s', () => {
    expect(parseModelSpec('deepseek-v4-pro')).toEqual({ kind: 'deepseek', model: 'deepseek-v4-pro' })
    expect(parseModelSpec('openai:qwen2.5-coder')).toEqual({ kind: 'openai', model: 'qwen2.5-coder' })
  })

  it('--append-system-prompt paragraphs end the system prompt as written, braces included', async () => {
    const tree = await tempTree({ 'repo/.git/': null, 'home/': null, 'scripts/': null })
    try {
      const script = writeScript(tree.path('scripts'), 'run.json', { responses: [{ text: 'oui' }] })
      const log = tree.path('requests.jsonl')
      const result = await runDsh(['--dsh-home', tree.path('home'), '-p', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log, '--append-system-prompt', 'Answer in French.', '--append-system-prompt', '  Braces {{like.this}} stay.  ', 'hello'], { cwd: tree.root })
      expect(result.code, result.stderr).toBe(0)
      const system = readRequests(log)[0]?.messages.find((message) => message.role === 'system')?.content ?? ''
      expect(system).toMatch(/\S\n\nAnswer in French\.\n\nBraces \{\{like\.this\}\} stay\.$/)
      expect(system.startsWith('You are dsh')).toBe(true)
    } finally {
      await tree.dispose()
    }
  })

  it('dsh -p with --disallowedTools and --max-turns: the denied call is refused, the run stops at the limit', async () => {
    const tree = await tempTree({ 'repo/.git/': null, 'repo/notes.txt': 'alpha\n', 'home/': null, 'scripts/': null })
    try {
      const script = writeScript(tree.path('scripts'), 'run.json', {
        responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'rm notes.txt' } }] }, { toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'never reached' }],
      })
      const log = tree.path('requests.jsonl')
      const result = await runDsh(['--dsh-home', tree.path('home'), '-p', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log, '--disallowedTools', 'Bash(rm:*) Write', '--max-turns', '2', 'tidy up'], { cwd: tree.root })
      expect(result.code).toBe(1)
      expect(result.stderr).toContain('stopped at the step limit (2 steps) before the model finished')
      const tools = (readRequests(log).at(-1)?.messages ?? []).filter((message) => message.role === 'tool').map((message) => message.content ?? '')
      expect(tools[0]).toMatch(/^The bash call was denied: .*bash\(rm:\*\)/)
      expect(tools[0]).not.toContain('alpha')
    } finally {
      await tree.dispose()
    }
  })
})
