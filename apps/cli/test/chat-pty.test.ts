// dsh chat on its full-screen terminal UI, in a real pseudo-terminal (the built binary, driven by
// pty-driver.py): screens compared with golden text (timing noise removed), paste, multi-line
// input, history, completion, queueing, Ctrl-C, the permission dialog, the session picker,
// --continue, NO_COLOR and TERM=dumb.
import { chmodSync, existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { TempTree } from '@dsh/testkit'
import { plainText, runDshPiped, runPty, type PtyStep } from './chat-harness.ts'
import { chatArgs, chatWorkspace, ctrlC, ctrlD, enter, finalScreen, golden, ready, say } from './chat-steps.ts'
import { readRequests, sessionIdOf, spawnCollect, testEnv, writeScript, type DshResult } from './run-dsh.ts'
import { normalizeScreen, screenOf } from './terminal-screen.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function workspace() {
  const made = await chatWorkspace()
  tree = made.tree
  return made
}

function spawnGit(cwd: string, args: readonly string[]): Promise<DshResult> {
  return spawnCollect('git', args, { cwd, env: testEnv(cwd) })
}

describe('dsh chat on the terminal UI', () => {
  it('renders reasoning, a tool row, markdown and a status line with tokens and cost; Ctrl-O and Ctrl-T expand (golden screen)', async () => {
    const w = await workspace()
    await tree.write({ 'dsh.yaml': 'model:\n  prices:\n    inputPerMillion: 2\n    outputPerMillion: 8\n' })
    const script = writeScript(tree.path('scripts'), 'read.json', {
      responses: [
        { reasoning: 'I should read it.', toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }], usage: { inputTokens: 1200, outputTokens: 80 } },
        { text: '## Notes\n\nThe file has **two** lines:\n\n- alpha\n- beta\n\n```ts\nconst lines = 2\n```\n', usage: { inputTokens: 1500, outputTokens: 120 } },
      ],
    })
    const result = await runPty(
      chatArgs(w, script, '--config', tree.path('dsh.yaml')),
      [ready, ...say('what is in notes.txt?'), { expect: 'ctx 1\\.6k/128k \\(1%\\) · \\$0\\.0070' }, { send: '\x0f' }, { expect: '1  alpha' }, { send: '\x14' }, { expect: 'I should read it\\.' }, { sleep: 0.3 }, ctrlD, { exit: 0 }],
      { cwd: tree.root },
    )
    const screen = await finalScreen(result.transcript, { [w.repo]: '<repo>', [tree.path('scripts')]: '<scripts>' })
    expect(screen).toBe(golden('chat-read.txt', screen))
    // Colour: the tool mark green, the heading cyan, the code highlighted.
    expect(result.transcript).toContain('\x1b[32m✓\x1b[39m')
    // oxlint-disable-next-line no-control-regex -- looking for the heading's colour code on purpose.
    expect(result.transcript).toMatch(/\x1b\[36m(?:\x1b\[\d+m)*Notes/)
  })

  it('edits and writes show a coloured diff; /diff shows the git diff of the working directory', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'edit.json', {
      responses: [{ toolCalls: [{ name: 'edit', arguments: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' } }, { name: 'write', arguments: { file_path: 'new.txt', content: 'fresh\n' } }] }, { text: 'Edited.' }],
    })
    expect((await spawnGit(w.repo, ['init', '-q'])).code).toBe(0)
    await spawnGit(w.repo, ['add', 'notes.txt'])
    await spawnGit(w.repo, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'notes'])
    // Repository config is untrusted: /diff must not run its hooks.
    await tree.write({ 'hook.sh': `#!/bin/sh\ntouch ${tree.path('hook-ran')}\n` })
    chmodSync(tree.path('hook.sh'), 0o755)
    await spawnGit(w.repo, ['config', 'core.fsmonitor', tree.path('hook.sh')])
    const result = await runPty(chatArgs(w, script), [ready, ...say('change it'), { expect: 'Edited\\.' }, ...say('/diff'), { expect: 'untracked: new\\.txt' }, { sleep: 0.2 }, ctrlD, { exit: 0 }], { cwd: tree.root })
    const screen = normalizeScreen(await screenOf(result.transcript))
    expect(screen).toMatch(/✓ edit notes\.txt .*\n {4}-beta\n {4}\+gamma\n/)
    expect(screen).toMatch(/✓ write new\.txt .*\n {4}@@ -0,0 \+1,1 @@\n {4}\+fresh\n/)
    expect(screen).toMatch(/--- a\/notes\.txt\n\+\+\+ b\/notes\.txt\n@@ -1,2 \+1,2 @@\n alpha\n-beta\n\+gamma/)
    expect(result.transcript).toContain('\x1b[31m-beta\x1b[39m')
    expect(result.transcript).toContain('\x1b[32m+gamma\x1b[39m')
    expect(existsSync(tree.path('hook-ran'))).toBe(false)
  })

  it('/model switches the model, /new starts a fresh session, /resume picks one and replays it', async () => {
    const w = await workspace()
    const first = writeScript(tree.path('scripts'), 'first.json', { responses: [{ text: 'from the first model' }] })
    const second = writeScript(tree.path('scripts'), 'second.json', { responses: [{ text: 'from the second model' }, { text: 'back in the first session' }] })
    const result = await runPty(
      chatArgs(w, first, '--request-log', w.log),
      [
        ready,
        ...say('question one'),
        { expect: 'from the first model' },
        ...say(`/model scripted:${second}`),
        { expect: 'from the next step on' },
        ...say('/new'),
        { expect: 'the previous one: dsh chat --resume' },
        ...say('question two'),
        { expect: 'from the second model' },
        ...say('/resume'),
        { expect: 'Resume a session' },
        { send: 'question one' },
        { sleep: 0.3 },
        enter,
        { expect: 'resumed session' },
        ...say('and again'),
        { expect: 'back in the first session' },
        { sleep: 0.2 },
        ctrlD,
        { exit: 0 },
      ],
      { cwd: tree.root },
    )
    const requests = readRequests(w.log)
    expect(requests.map((request) => request.messages.slice(1).map((message) => message.content))).toEqual([['question one'], ['question two'], ['question one', 'from the first model', 'and again']])
    const screen = (await screenOf(result.transcript)).join('\n')
    expect(screen).toContain('› question one')
    expect(screen).toContain('scripted:' + second)
  })

  it('a resize re-renders at the new width; SIGTERM ends the chat with 143 and restores the terminal', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'resize.json', { responses: [{ text: 'A line of text that is long enough to wrap when the terminal becomes narrow enough to need it.' }] })
    const result = await runPty(chatArgs(w, script), [ready, ...say('say something'), { expect: 'narrow enough' }, { resize: [40, 30] }, { sleep: 0.5 }, { signal: 'TERM' }, { exit: 143 }], { cwd: tree.root })
    expect(result.cooked).toBe(true)
    expect(result.transcript.lastIndexOf('\x1b[?2004l')).toBeGreaterThan(result.transcript.lastIndexOf('\x1b[?2004h'))
    const narrow = await screenOf(result.transcript, 40, 30)
    expect(narrow.some((line) => line.startsWith('A line of text that is long enough to'))).toBe(true)
    expect(narrow.every((line) => line.length <= 40)).toBe(true)
    expect(plainText(result.transcript)).toMatch(/resume with: dsh chat --resume \S+/)
  })

  it('a 20-line bracketed paste is one message and one turn', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'paste.json', { responses: [{ text: 'Got all twenty lines.' }] })
    const lines = Array.from({ length: 20 }, (_, i) => `pasted line ${i + 1}`)
    const result = await runPty(
      chatArgs(w, script, '--request-log', w.log),
      [ready, { send: `\x1b[200~${lines.join('\n')}\x1b[201~` }, { expect: '\\[paste #1 \\+20 lines\\]' }, enter, { expect: 'Got all twenty lines\\.' }, { sleep: 0.2 }, ctrlD, { exit: 0 }],
      { cwd: tree.root },
    )
    const requests = readRequests(w.log)
    expect(requests).toHaveLength(1)
    expect(requests[0]?.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([lines.join('\n')])
    expect(plainText(result.transcript)).toContain('… 14 more lines')
  })

  it('Shift-Enter, Alt-Enter, Ctrl-J and a trailing backslash add lines; Enter sends them as one message', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'multi.json', { responses: [{ text: 'Five lines received.' }] })
    const steps: PtyStep[] = [ready, { sleep: 0.3 }, { send: 'one' }, { send: '\x1b[13;2u' }, { send: 'two' }, { send: '\x1b\r' }, { send: 'three' }, { send: '\n' }, { send: 'four\\' }, enter, { send: 'five' }, { sleep: 0.1 }, enter]
    await runPty(chatArgs(w, script, '--request-log', w.log), [...steps, { expect: 'Five lines received\\.' }, { sleep: 0.2 }, ctrlD, { exit: 0 }], { cwd: tree.root })
    expect(readRequests(w.log)[0]?.messages.at(-1)?.content).toBe('one\ntwo\nthree\nfour\nfive')
  })

  it('history is recalled with Up in a later chat, with NO_COLOR set (editing works, no colour codes)', async () => {
    const w = await workspace()
    const first = writeScript(tree.path('scripts'), 'first.json', { responses: [{ text: 'First answer.' }] })
    const second = writeScript(tree.path('scripts'), 'second.json', { responses: [{ text: 'Second answer.' }] })
    await runPty(chatArgs(w, first), [ready, ...say('remember this question'), { expect: 'First answer\\.' }, { sleep: 0.2 }, ctrlD, { exit: 0 }], { cwd: tree.root, env: { NO_COLOR: '1' } })
    const result = await runPty(
      chatArgs(w, second, '--request-log', w.log),
      [ready, { sleep: 0.3 }, { send: '\x1b[A' }, { expect: 'remember this question' }, { sleep: 0.1 }, enter, { expect: 'Second answer\\.' }, { sleep: 0.2 }, ctrlD, { exit: 0 }],
      { cwd: tree.root, env: { NO_COLOR: '1' } },
    )
    expect(readRequests(w.log)[0]?.messages.at(-1)?.content).toBe('remember this question')
    // oxlint-disable-next-line no-control-regex -- looking for colour SGR codes on purpose.
    expect(result.transcript).not.toMatch(/\x1b\[(3\d|4\d|9\d|10\d)(;[\d;]*)?m/)
  })

  it('Tab completes slash commands and @file references', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'tab.json', { responses: [{ text: 'Reading the reference.' }] })
    await runPty(
      chatArgs(w, script, '--request-log', w.log),
      [ready, { sleep: 0.3 }, { send: '/hel' }, { sleep: 0.3 }, { send: '\t' }, { sleep: 0.2 }, enter, { expect: '/compact \\[TEXT\\] +replace the history' }, { sleep: 0.2 }, { send: 'look at @no' }, { sleep: 0.2 }, { send: '\t' }, { sleep: 0.3 }, enter, { expect: 'Reading the reference\\.' }, { sleep: 0.2 }, ctrlD, { exit: 0 }],
      { cwd: tree.root },
    )
    // The prompt as completed, then the mentioned file's contents.
    const messages = readRequests(w.log)[0]?.messages ?? []
    expect(messages.at(-2)?.content).toBe('look at @notes.txt')
    expect(messages.at(-1)?.content).toMatch(/^Files the user attached with @[^\n]*\n\n<file path="notes\.txt">\n {5}1\t/)
  })

  it('a message typed while an answer streams is queued, leaves the streamed text intact, and runs next', async () => {
    const w = await workspace()
    const long = 'This answer streams slowly, sixteen characters at a time, so there is time to type.'
    // The answer holds after its first piece until the queued message is on screen.
    const release = tree.path('release-first-answer')
    const script = writeScript(tree.path('scripts'), 'queue.json', { responses: [{ text: long, holdAfter: 1, releaseFile: release }, { text: 'Queued one answered.' }] })
    const result = await runPty(
      chatArgs(w, script, '--request-log', w.log),
      [ready, ...say('first'), { expect: 'This answer' }, { send: 'second question' }, enter, { expect: 'queued › second question' }, { touch: release }, { expect: 'Queued one answered\\.' }, { sleep: 0.2 }, ctrlD, { exit: 0 }],
      { cwd: tree.root },
    )
    const screen = (await screenOf(result.transcript)).join('\n')
    expect(screen).toContain(long)
    expect(screen.indexOf(long)).toBeLessThan(screen.indexOf('› second question'))
    expect(readRequests(w.log).map((request) => request.messages.at(-1)?.content)).toEqual(['first', 'second question'])
  })

  it('Ctrl-C cancels a step ([interrupted]), then clears a half-typed line, and neither counts toward exit (two at an idle prompt: 130)', async () => {
    const w = await workspace()
    const slow = 'Streaming slowly: this sentence arrives sixteen characters at a time and never finishes.'
    const script = writeScript(tree.path('scripts'), 'slow.json', { responses: [{ text: slow, holdAfter: 1 }] })
    const result = await runPty(
      chatArgs(w, script),
      [ready, ...say('tell me slowly'), { expect: 'Streaming slowly' }, ctrlC, { expect: '\\[interrupted\\]' }, { send: 'half a line' }, { expect: 'half a line' }, ctrlC, { sleep: 0.3 }, ...say('/status'), { expect: 'session: +\\S+ \\(1 turn' }, ctrlC, { expect: 'press Ctrl-C again to exit' }, ctrlC, { exit: 130 }],
      { cwd: tree.root },
    )
    const text = plainText(result.transcript)
    expect(text).not.toContain('never finishes')
    const id = /resume with: dsh chat --resume (\S+)/.exec(text)?.[1] ?? 'no resume hint on screen'
    const shown = await runDshPiped(['--dsh-home', w.home, 'sessions', 'show', id, '--messages'], '', { cwd: tree.root })
    expect(shown.stdout).toMatch(/Streaming slowly[\s\S]*\[interrupted\]/)
  })

  it('the permission dialog: a paste cannot answer it; allow-always for a prefix; reject with a note for the model', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'ask.json', {
      responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'ls -a' } }] }, { toolCalls: [{ name: 'bash', arguments: { command: 'ls -la' } }] }, { toolCalls: [{ name: 'bash', arguments: { command: 'rm notes.txt' } }] }, { text: 'All done.' }],
    })
    const down = '\x1b[B'
    const result = await runPty(
      chatArgs(w, script, '--request-log', w.log),
      [
        ready,
        ...say('list and clean'),
        { expect: 'Run bash: ls -a\\?' },
        { sleep: 0.4 },
        // The paste goes to the message being written, not to the question; after a pause the question takes keys.
        { send: '\x1b[200~y\r\x1b[201~' },
        { sleep: 0.8 },
        { send: down },
        { sleep: 0.1 },
        enter,
        { expect: 'Run bash: rm notes\\.txt\\?' },
        { sleep: 0.4 },
        { send: `${down}${down}${down}` },
        { sleep: 0.1 },
        enter,
        { expect: 'Tell the model what to do instead' },
        { send: 'keep the notes' },
        enter,
        { expect: 'All done\\.' },
        { sleep: 0.2 },
        // The pasted draft is still in the editor: Ctrl-C clears it, then Ctrl-D exits.
        ctrlC,
        { sleep: 0.1 },
        ctrlD,
        { exit: 0 },
      ],
      { cwd: tree.root },
    )
    expect(plainText(result.transcript)).not.toContain('Run bash: ls -la?')
    const tools = readRequests(w.log).flatMap((request) => request.messages.filter((message) => message.role === 'tool').map((message) => message.content))
    expect(tools.at(-1)).toBe('The bash call was not approved (permission mode ask asks before running bash). The user said: "keep the notes". Ask the user how to proceed or choose another approach.')
    expect(readFileSync(tree.path('repo/notes.txt'), 'utf8')).toBe('alpha\nbeta\n')
  })

  it('--resume without an id opens the picker and replays the chosen session; --continue takes the latest one here', async () => {
    const w = await workspace()
    const earlier = writeScript(tree.path('scripts'), 'earlier.json', { responses: [{ text: 'earlier answer' }] })
    const previous = await runDshPiped(chatArgs(w, earlier), 'an earlier question\n', { cwd: tree.root })
    const previousId = sessionIdOf(previous.stderr)
    const script = writeScript(tree.path('scripts'), 'picked.json', { responses: [{ text: 'picked answer' }, { text: 'continued answer' }] })
    const picked = await runPty(
      chatArgs(w, script, '--resume', '--request-log', w.log),
      [{ expect: 'Resume a session' }, { expect: 'an earlier question' }, { sleep: 0.2 }, enter, { expect: 'earlier answer' }, ...say('and now?'), { expect: 'picked answer' }, { sleep: 0.2 }, ctrlD, { exit: 0 }],
      { cwd: tree.root },
    )
    expect(plainText(picked.transcript)).toContain(`resumed session ${previousId} (2 visible messages)`)
    const continued = await runPty(chatArgs(w, script, '--continue', '--request-log', w.log), [ready, { expect: 'and now\\?' }, ...say('once more'), { expect: 'picked answer|continued answer' }, { sleep: 0.2 }, ctrlD, { exit: 0 }], { cwd: tree.root })
    expect(plainText(continued.transcript)).toContain(`resume with: dsh chat --resume ${previousId}`)
    const requests = readRequests(w.log)
    expect(requests[0]?.messages.slice(1).map((message) => message.content)).toEqual(['an earlier question', 'earlier answer', 'and now?'])
    expect(requests[1]?.messages.slice(1).map((message) => message.content)).toEqual(['an earlier question', 'earlier answer', 'and now?', 'picked answer', 'once more'])
  })

  it('Esc clears a half-typed message, and cancels a running step when the input is empty', async () => {
    const w = await workspace()
    const slow = 'Streaming slowly: this sentence arrives sixteen characters at a time and never finishes.'
    const script = writeScript(tree.path('scripts'), 'esc.json', { responses: [{ text: slow, holdAfter: 1 }, { text: 'After the cancel.' }] })
    await runPty(
      chatArgs(w, script, '--request-log', w.log),
      [ready, { send: 'a draft to drop' }, { expect: 'a draft to drop' }, { sleep: 0.1 }, { send: '\x1b' }, { sleep: 0.3 }, ...say('tell me slowly'), { expect: 'Streaming slowly' }, { send: '\x1b' }, { expect: '\\[interrupted\\]' }, ...say('go on'), { expect: 'After the cancel\\.' }, { sleep: 0.2 }, ctrlD, { exit: 0 }],
      { cwd: tree.root },
    )
    expect(readRequests(w.log).map((request) => request.messages.filter((message) => message.role === 'user').map((message) => message.content))).toEqual([['tell me slowly'], ['tell me slowly', 'go on']])
  })

  it('--continue with no earlier session here starts a new one and says so on screen', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'fresh.json', { responses: [] })
    const result = await runPty(chatArgs(w, script, '--continue'), [ready, { expect: 'no earlier session in \\S+repo; starting a new one' }, { sleep: 0.2 }, ctrlD, { exit: 0 }], { cwd: tree.root })
    expect((await screenOf(result.transcript)).join('\n')).toContain('starting a new one')
  })

  it('the status line counts the additional roots; /workspace-folders lists and adds them', async () => {
    const w = await workspace()
    await tree.write({ 'docs/readme.md': 'docs', 'lib/index.ts': '' })
    const script = writeScript(tree.path('scripts'), 'roots.json', { responses: [] })
    const result = await runPty(
      chatArgs(w, script, '--add-dir', tree.path('docs')),
      [ready, { expect: '~/repo · \\+1 root · ' }, ...say(`/workspace-folders add ${tree.path('lib')}`), { expect: '\\+2 roots' }, ...say('/workspace-folders'), { expect: 'lib' }, { sleep: 0.2 }, ctrlD, { exit: 0 }],
      { cwd: tree.root },
    )
    expect((await screenOf(result.transcript)).join('\n')).toContain('+2 roots')
  })

  it('TERM=dumb falls back to the plain line mode: no escape codes at all', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'dumb.json', { responses: [{ reasoning: 'Reading.', toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'Plain **answer**.' }] })
    const result = await runPty(chatArgs(w, script), [{ expect: '> $' }, ...say('read it'), { expect: '→ read notes\\.txt\\n' }, { expect: 'Plain \\*\\*answer\\*\\*\\.' }, { expect: '> $' }, ...say('/exit'), { exit: 0 }], { cwd: tree.root, env: { TERM: 'dumb' } })
    expect(result.transcript).not.toContain('\x1b')
    expect(plainText(result.transcript)).toContain('thinking: Reading.')
  })
})
