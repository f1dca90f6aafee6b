// `!command` lines in dsh chat (piped): the person's command runs in the session's directory, its
// output and exit code show under the line, and the model gets command and output right after the
// next prompt, as context the person gave; the model is not called for the `!` line.
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { shellContext } from '@dsh/tui'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

/** The model's text of command `x` run in /repo with `outcome`. */
const modelText = (outcome: Parameters<typeof shellContext>[0]['outcome']): string => {
  const block = shellContext({ cwd: '/repo', command: 'x', outcome }).content[0]
  return block?.type === 'text' ? block.text : ''
}

describe('! lines in the chat', () => {
  it('run the command, show its output, and hand it to the model with the next prompt', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'repo/notes.txt': 'alpha\n', 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'chat.json', { responses: [{ text: 'It printed alpha.' }] })
    const log = tree.path('requests.jsonl')
    const input = '!cat notes.txt; echo oops >&2; exit 3\nwhat did it print?\n/exit\n'
    const result = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log], input, { cwd: tree.root })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('alpha\noops\n[exit code 3]\n')
    const requests = readRequests(log)
    expect(requests).toHaveLength(1)
    const users = (requests[0]?.messages ?? []).filter((message) => message.role === 'user').map((message) => message.content ?? '')
    const context = `The user ran this shell command themselves in ${tree.path('repo')} (not a tool call of yours):\n$ cat notes.txt; echo oops >&2; exit 3\nalpha\noops\n[exit code 3]`
    expect(users.indexOf('what did it print?')).toBeGreaterThanOrEqual(0)
    expect(users.indexOf(context)).toBe(users.indexOf('what did it print?') + 1)
    expect(readFileSync(tree.path('repo/notes.txt'), 'utf8')).toBe('alpha\n')
  })

  it('a long output is cut at the bash tool\'s 30,000 characters, for the person and the model', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'chat.json', { responses: [{ text: 'long' }] })
    const log = tree.path('requests.jsonl')
    const result = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log], "!head -c 40000 /dev/zero | tr '\\0' x\nand?\n/exit\n", { cwd: tree.root })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(`${'x'.repeat(100)}\n[output cut]\n[exit code 0]\n`)
    const context = (readRequests(log)[0]?.messages ?? []).map((message) => message.content ?? '').find((text) => text.startsWith('The user ran this shell command')) ?? ''
    expect(context.split('\n')[2]).toHaveLength(30_000)
    expect(context).toMatch(/\n\[output cut: only its beginning is shown\]\n\[exit code 0\]$/)
  })

  it('a command file whose body starts with ! is sent as a prompt: dsh never runs it', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'repo/.claude/commands/review.md': '!touch pwned && echo ran\n', 'repo/.claude/commands/slash.md': '/etc/hosts looks wrong\n', 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'chat.json', { responses: [{ text: 'not run' }, { text: 'a path' }] })
    const log = tree.path('requests.jsonl')
    const result = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log], '/review\n/slash\n/exit\n', { cwd: tree.root })
    expect(result.code, result.stderr).toBe(0)
    expect(existsSync(tree.path('repo/pwned'))).toBe(false)
    const prompts = readRequests(log).map((request) => request.messages.filter((message) => message.role === 'user').at(-1)?.content)
    expect(prompts).toEqual(['!touch pwned && echo ran\n', '/etc/hosts looks wrong\n'])
  })

  it("the model's text for a command without output, one cut short, and one ended by a signal", () => {
    expect(modelText({ output: '', exitCode: 0, truncated: false })).toBe('The user ran this shell command themselves in /repo (not a tool call of yours):\n$ x\n(no output)\n[exit code 0]')
    expect(modelText({ output: 'a\nb\n', exitCode: null, signal: 'SIGINT', truncated: true })).toBe('The user ran this shell command themselves in /repo (not a tool call of yours):\n$ x\na\nb\n[output cut: only its beginning is shown]\n[ended by SIGINT]')
  })
})
