// dsh chat in a real pseudo-terminal (the built binary, driven by pty-driver.py): streaming, tool
// call lines, the bash permission prompt, slash commands, Ctrl-C, Ctrl-D, /exit and NO_COLOR.
import { existsSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { plainText, runDshPiped, runPty, type PtyStep } from './chat-harness.ts'
import { readRequests, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function workspace() {
  tree = await tempTree({ 'repo/notes.txt': 'alpha\nbeta\n', 'scripts/': null })
  return { repo: tree.path('repo'), home: tree.path('home'), log: tree.path('requests.jsonl') }
}

const prompt: PtyStep = { expect: '> $' }
const say = (line: string): PtyStep[] => [prompt, { send: `${line}\r` }]
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('dsh chat in a terminal', () => {
  it('streams the answer, shows the tool call with a result summary, and exits on /exit', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'read.json', {
      responses: [{ reasoning: 'I should read it.', toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'The file says alpha and beta.' }],
    })
    const result = await runPty(
      ['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`],
      [{ expect: 'session: \\S+' }, ...say('what is in notes.txt?'), { expect: 'thinking: I should read it\\.' }, { expect: '→ read notes\\.txt\\n' }, { expect: '  ✓ ok: .*alpha.*\\(2 lines\\)\\n' }, { expect: 'The file says alpha and beta\\.\\n' }, ...say('/exit'), { exit: 0 }],
      { cwd: tree.root },
    )
    expect(result.transcript).toContain('\x1b[36m→ read\x1b[39m')
    expect(result.transcript).toContain('\x1b[2mthinking: \x1b[22m')
    const text = plainText(result.transcript)
    expect(text.indexOf('thinking:')).toBeLessThan(text.indexOf('→ read'))
    expect(text).not.toMatch(/thinking: I should read it\.The file/)
  })

  it('asks before bash; a "n" becomes a denial the model sees in its next request', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'bash.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo hi > made.txt' } }] }, { text: 'Understood, I will not run it.' }] })
    const result = await runPty(
      ['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log],
      [...say('make a file'), { expect: '→ bash echo hi > made\\.txt\\n' }, { expect: 'Run bash: echo hi > made\\.txt\\? \\[y/N\\] $' }, { send: 'n\r' }, { expect: '✗ denied: The bash call was not approved' }, { expect: 'Understood, I will not run it\\.' }, ...say('/exit'), { exit: 0 }],
      { cwd: tree.root },
    )
    expect(plainText(result.transcript)).toContain('Run bash: echo hi > made.txt? [y/N] n\n')
    const requests = readRequests(w.log)
    expect(requests).toHaveLength(2)
    const denial = requests[1]?.messages.find((message) => message.role === 'tool')
    expect(denial?.content).toMatch(/^The bash call was not approved \(dsh chat asks before running bash\)\./)
    expect(existsSync(tree.path('repo/made.txt'))).toBe(false)
  })

  it('/compact, /sessions and /resume work on stored sessions; Ctrl-D exits', async () => {
    const w = await workspace()
    const earlier = writeScript(tree.path('scripts'), 'earlier.json', { responses: [{ text: 'earlier answer' }] })
    const previous = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${earlier}`], 'an earlier question\n', { cwd: tree.root })
    const previousId = sessionIdOf(previous.stderr)
    const script = writeScript(tree.path('scripts'), 'chat.json', { responses: [{ text: 'first answer' }, { text: 'second answer' }, { text: 'resumed answer' }] })
    const result = await runPty(
      ['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log],
      [
        ...say('first question'),
        { expect: 'first answer' },
        ...say('second question'),
        { expect: 'second answer' },
        ...say('/compact'),
        { expect: 'compacted: 4 visible messages -> 1\\n' },
        ...say('/sessions'),
        { expect: `\\* \\S+ .*first question` },
        { expect: `  ${escape(previousId)} .*an earlier question` },
        ...say(`/resume ${previousId}`),
        { expect: `resumed session ${escape(previousId)} \\(2 visible messages\\)` },
        ...say('and now?'),
        { expect: 'resumed answer' },
        prompt,
        { send: '\u0004' },
        { exit: 0 },
      ],
      { cwd: tree.root },
    )
    const text = plainText(result.transcript)
    const chatId = sessionIdOf(text)
    expect(text).toContain(`session: ${previousId}\n`)
    expect(chatId).not.toBe(previousId)
    const requests = readRequests(w.log)
    expect(requests).toHaveLength(3)
    expect(requests[2]?.messages.slice(1).map((message) => message.content)).toEqual(['an earlier question', 'earlier answer', 'and now?'])
    const shown = await runDshPiped(['--dsh-home', w.home, 'sessions', 'show', chatId, '--messages'], '', { cwd: tree.root })
    expect(shown.stdout).toContain('--- user (compaction)')
  })

  it('Ctrl-C cancels a running step and the next prompt works; Ctrl-C twice at the prompt exits 0', async () => {
    const w = await workspace()
    const slow = 'Streaming slowly: this sentence arrives sixteen characters at a time and never finishes.'
    const script = writeScript(tree.path('scripts'), 'slow.json', { responses: [{ text: slow, delayMs: 400 }, { text: 'Back to normal.' }] })
    const result = await runPty(
      ['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`],
      [
        ...say('tell me slowly'),
        { expect: 'Streaming slowly' },
        { send: '\u0003' },
        { expect: 'cancelled\\n' },
        ...say('again'),
        { expect: 'Back to normal\\.' },
        prompt,
        { send: '\u0003' },
        { expect: 'press Ctrl-C again to exit' },
        { send: '\u0003' },
        { exit: 130 },
      ],
      { cwd: tree.root },
    )
    const text = plainText(result.transcript)
    expect(text).not.toContain('never finishes')
    expect(text).toMatch(/Streaming slowly[^\n]*\ncancelled\n/)
  })

  it('NO_COLOR: no escape sequences at all, with slash commands, hints and tool lines', async () => {
    const w = await workspace()
    await tree.write({ 'repo/AGENTS.md': '# Rules\nKeep it short.\n' })
    const script = writeScript(tree.path('scripts'), 'plain.json', { responses: [{ reasoning: 'Reading.', toolCalls: [{ name: 'read', arguments: { file_path: 'missing.txt' } }] }, { text: 'There is no such file.' }] })
    const result = await runPty(
      ['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`],
      [
        ...say('read missing.txt'),
        { expect: '→ read missing\\.txt\\n' },
        { expect: '  ✗ error: ' },
        { expect: 'There is no such file\\.' },
        ...say('/help'),
        { expect: '/compact +replace the history' },
        ...say('/context'),
        { expect: 'Instruction files for new sessions here:\\n(.*\\n)*?    AGENTS\\.md: loaded \\(\\d+ bytes\\)\\n' },
        // Once the workspace-context plugin is mounted, the first turn's baseline is visible here.
        { expect: 'In this session:\\n  (no workspace instruction files are visible in this session yet|instruction messages visible in this session: 1)' },
        ...say('/frobnicate now'),
        { expect: 'unknown command /frobnicate \\(type /help for the list\\)' },
        ...say('/exit'),
        { exit: 0 },
      ],
      { cwd: tree.root, env: { NO_COLOR: '1' } },
    )
    expect(result.transcript).not.toContain('\x1b[')
    expect(result.transcript).toContain('thinking: Reading.')
  })
})
