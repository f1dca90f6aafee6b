// The chat's permission question in a real 120×40 tmux window: a one-line command longer than the
// terminal and a 12-line command are on screen whole (every character, wrapped), with the
// directory and why it asks; a command taller than the window scrolls inside the dialog and
// "allow" waits until every line was shown.
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { chatArgs } from './chat-steps.ts'
import { writeScript } from './run-dsh.ts'
import { tmuxChat } from './tmux-chat.ts'

const chat = tmuxChat()

/** The dialog ignores keys for its first 250 ms (settleMs); it was built before it was drawn, so this much after seeing it is past that. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 400))

/** The screen with line breaks and runs of spaces removed, to find wrapped text in it. */
const flat = (lines: readonly string[]): string => lines.join('').replace(/\s+/g, '')

describe('the permission question on a real terminal', () => {
  it('shows a 200-character command and a 12-line command whole at 120×40, with the directory and the reason', async () => {
    const w = await chat.workspace()
    const long = `find . -name "*.log" -type f -mtime +7 -print0 | xargs -0 --no-run-if-empty ls -la ${'a/'.repeat(40)} 2>&1 | tee cleanup.txt; rm -rf ./ssh-keys-END`
    expect(long.length).toBeGreaterThan(200)
    const twelve = Array.from({ length: 12 }, (_, i) => `echo step-${i + 1}`).join('\n')
    const script = writeScript(w.tree.path('scripts'), 'questions.json', {
      responses: [{ toolCalls: [{ name: 'bash', arguments: { command: long } }] }, { toolCalls: [{ name: 'bash', arguments: { command: twelve } }] }, { text: 'Nothing ran.' }],
    })
    const tmux = await chat.start(chatArgs(w, script), { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    await tmux.keys(['clean up'], { literal: true })
    await tmux.keys(['Enter'])
    const first = await tmux.waitFor(/Run bash:[\s\S]*No$/m)
    expect(flat(first)).toContain(long.replace(/\s+/g, ''))
    expect(first).toContain(`in ${w.repo}`)
    expect(first.join('\n')).toContain('why: permission mode ask asks before running bash')
    await settle()
    await tmux.keys(['Escape'])
    const second = await tmux.waitFor(/Run bash: echo step-1 \(\+11 lines\)\?/)
    for (let i = 1; i <= 12; i += 1) expect(second).toContain(`  echo step-${i}`)
    await settle()
    await tmux.keys(['Escape'])
    await tmux.waitFor(/Nothing ran\./)
  }, 90_000)

  it('scrolls a 60-line command inside the dialog; Enter on "allow" waits until every line was shown', async () => {
    const w = await chat.workspace()
    // Inside the working directory: the sandbox gives commands a private temp directory.
    const marker = w.tree.path('repo/ran')
    const sixty = [...Array.from({ length: 59 }, (_, i) => `echo line-${i + 1}`), `touch ${marker}`].join('\n')
    const script = writeScript(w.tree.path('scripts'), 'tall.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: sixty } }] }, { text: 'Ran the tall one.' }] })
    const tmux = await chat.start(chatArgs(w, script), { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    await tmux.keys(['go'], { literal: true })
    await tmux.keys(['Enter'])
    await tmux.waitFor(/lines 1–\d+ of 60 · PgUp\/PgDn scroll · more below/)
    await settle()
    await tmux.keys(['Enter'])
    await tmux.waitFor(/Allowing needs every line on screen once: PgDn to read on/)
    expect(existsSync(marker)).toBe(false)
    // One page at a time, each waited for on screen: keys faster than frames skip lines unseen.
    let screen = (await tmux.waitFor(/lines 1–\d+ of 60/)).join('\n')
    const window = (): RegExpExecArray | null => /lines (\d+)–(\d+) of 60/.exec(screen)
    for (let shown = window(); shown !== null && shown[2] !== '60'; shown = window()) {
      await tmux.keys(['PageDown'])
      screen = (await tmux.waitFor(new RegExp(`lines (?!${shown[1]}–)\\d+–\\d+ of 60`))).join('\n')
    }
    expect(screen).toMatch(/touch .*ran\n[\s\S]*lines \d+–60 of 60/)
    await tmux.keys(['Enter'])
    await tmux.waitFor(/Ran the tall one\./)
    expect(existsSync(marker)).toBe(true)
  }, 90_000)
})
