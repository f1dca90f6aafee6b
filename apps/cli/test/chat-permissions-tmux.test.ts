// /mode and /permissions in a real chat (tmux, 120×40, the built binary): switching an ask-mode
// chat to full-auto lets the next command run unasked and the status line says so, read-only is
// refused with the way to get it; Shift+Tab cycles the modes; /permissions lists the rules with where each was written, and
// removing the session's "allow always" rule makes the same command ask again; "always" for a
// compound command offers its parts' prefixes, never the whole tool, until bash asks again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { chatArgs } from './chat-steps.ts'
import { writeScript } from './run-dsh.ts'
import type { TmuxSession } from './tmux-session.ts'
import { tmuxChat } from './tmux-chat.ts'

const chat = tmuxChat()

/** The dialog ignores keys for its first 250 ms (settleMs); it was built before it was drawn, so this much after seeing it is past that. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 400))

async function send(session: TmuxSession, line: string): Promise<void> {
  await session.keys([line], { literal: true })
  await session.keys(['Enter'])
}

const call = (command: string) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] })

describe('permission controls in the chat', () => {
  it('/mode full-auto runs the next command unasked and shows in the status line; /mode read-only is refused', async () => {
    const w = await chat.workspace()
    const script = writeScript(w.tree.path('scripts'), 'mode.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'touch switched' } }] }, { text: 'Touched it.' }] })
    const tmux = await chat.start(chatArgs(w, script), { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    await send(tmux, '/mode')
    await tmux.waitFor(/mode: ask — ask before bash, run_code, web_fetch \(switch with \/mode auto-edit\|full-auto\)/)
    await send(tmux, '/mode read-only')
    await tmux.waitFor(/mode unchanged: read-only needs a shell sandbox set up at start: start dsh again with --permission-mode read-only/)
    await send(tmux, '/mode full-auto')
    await tmux.waitFor(/mode: full-auto — full-auto \(shell sandboxed\) \(switch with \/mode ask\|auto-edit\); applies from the next tool call/)
    // The status line above the editor names the new mode.
    await tmux.waitFor(/^scripted:\S+ · ~\/repo · full-auto \(shell sandboxed\)/m)
    await send(tmux, 'touch a file')
    await tmux.waitFor(/Touched it\./)
    expect(existsSync(w.tree.path('repo/switched'))).toBe(true)
    expect((await tmux.waitFor(/Touched it\./)).join('\n')).not.toContain('Run bash: touch switched?')
  }, 90_000)

  it('Shift+Tab moves to the next mode (ask → auto-edit → full-auto → ask), shown in the hint and the status line', async () => {
    const w = await chat.workspace()
    const script = writeScript(w.tree.path('scripts'), 'cycle.json', { responses: [call('touch cycled'), { text: 'Cycled and touched.' }] })
    const tmux = await chat.start(chatArgs(w, script), { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    await tmux.keys(['BTab'])
    await tmux.waitFor(/mode: auto-edit — auto-edit \(ask before bash, run_code, web_fetch\) \(Shift\+Tab: next mode\)/)
    await tmux.waitFor(/^scripted:\S+ · ~\/repo · auto-edit \(ask before bash, run_code, web_fetch\)/m)
    await tmux.keys(['BTab'])
    await tmux.waitFor(/^scripted:\S+ · ~\/repo · full-auto \(shell sandboxed\)/m)
    await send(tmux, 'touch it')
    await tmux.waitFor(/Cycled and touched\./)
    expect(existsSync(w.tree.path('repo/cycled'))).toBe(true)
    expect((await tmux.waitFor(/Cycled and touched\./)).join('\n')).not.toContain('Run bash: touch cycled?')
    await tmux.keys(['BTab'])
    await tmux.waitFor(/^scripted:\S+ · ~\/repo · ask before bash, run_code, web_fetch/m)
  }, 90_000)

  it('a Notification hook hears idle_prompt once when the prompt has waited after a turn (DSH_IDLE_NOTIFY_MS)', async () => {
    const w = await chat.workspace()
    const heard = w.tree.path('heard.jsonl')
    writeFileSync(w.tree.path('dsh.yaml'), JSON.stringify({ hooks: { Notification: [{ matcher: 'idle_prompt', hooks: [{ type: 'command', command: `jq -c '{notification_type, message}' >> ${heard}` }] }] } }))
    const script = writeScript(w.tree.path('scripts'), 'idle.json', { responses: [{ text: 'Answered, now waiting.' }] })
    const tmux = await chat.start([...chatArgs(w, script, '--config', w.tree.path('dsh.yaml')), 'first question'], { cwd: w.tree.root, env: { DSH_IDLE_NOTIFY_MS: '300' } })
    await tmux.waitFor(/Answered, now waiting\./)
    await expect.poll(() => (existsSync(heard) ? readFileSync(heard, 'utf8') : ''), { timeout: 20_000 }).toBe('{"notification_type":"idle_prompt","message":"dsh is waiting for your input"}\n')
    // Once per wait: it does not repeat while the prompt keeps waiting.
    await new Promise((resolve) => setTimeout(resolve, 900))
    expect(readFileSync(heard, 'utf8').split('\n').filter((line) => line !== '')).toHaveLength(1)
  }, 90_000)

  it('/permissions lists rules with their sources; removing the session rule makes the command ask again', async () => {
    const w = await chat.workspace()
    const script = writeScript(w.tree.path('scripts'), 'rules.json', {
      responses: [call('git status'), { text: 'First done.' }, call('git status --short'), { text: 'Second done.' }, call('git status'), { text: 'Third done.' }],
    })
    const tmux = await chat.start(chatArgs(w, script, '--deny', 'bash(rm -rf:*)'), { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    await send(tmux, 'first')
    await tmux.waitFor(/Run bash: git status\?[\s\S]*Yes, and allow "git status …" for the rest of this session/)
    await settle()
    await tmux.keys(['Down'])
    await tmux.keys(['Enter'])
    await tmux.waitFor(/First done\./)
    await send(tmux, 'second')
    await tmux.waitFor(/Second done\./)
    await send(tmux, '/permissions')
    const listing = (await tmux.waitFor(/\/permissions remove N takes a session rule away/)).join('\n')
    expect(listing).toMatch(/rules in force \(a deny rule wins over every allow\):\n\s+1\. deny  bash\(rm -rf:\*\)\s+command line\n\s+2\. allow bash\(git status:\*\)\s+this session \("allow always"\)/)
    await send(tmux, '/permissions remove 1')
    await tmux.waitFor(/bash\(rm -rf:\*\) comes from command line: change it there/)
    await send(tmux, '/permissions remove 2')
    await tmux.waitFor(/removed bash\(git status:\*\) from this session/)
    await send(tmux, 'third')
    await tmux.waitFor(/Run bash: git status\?/)
    await settle()
    await tmux.keys(['Escape'])
    await tmux.waitFor(/Third done\./)
  }, 90_000)

  it('"always" for a compound command offers its parts\' prefixes, not the whole tool; the parts then run unasked, a new part asks and the whole tool is offered', async () => {
    const w = await chat.workspace()
    const script = writeScript(w.tree.path('scripts'), 'compound.json', {
      responses: [call('ls && wc -l notes.txt'), { text: 'First done.' }, call('wc -c notes.txt; ls -a'), { text: 'Second done.' }, call('ls | sort'), { text: 'Third done.' }],
    })
    const tmux = await chat.start(chatArgs(w, script), { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    await send(tmux, 'first')
    const question = (await tmux.waitFor(/Run bash: ls && wc -l notes\.txt\?[\s\S]*Yes, and allow each part \("ls …", "wc …"\) for the rest of this session[\s\S]*No$/m)).join('\n')
    expect(question).not.toContain('allow every bash call')
    await settle()
    await tmux.keys(['Down'])
    await tmux.keys(['Enter'])
    await tmux.waitFor(/First done\./)
    await send(tmux, 'second')
    await tmux.waitFor(/Second done\./)
    expect((await tmux.screen()).join('\n')).not.toContain('Run bash: wc -c notes.txt; ls -a?')
    await send(tmux, '/permissions')
    await tmux.waitFor(/allow bash\(ls:\*\)\s+this session \("allow always"\)\n\s+\d\. allow bash\(wc:\*\)\s+this session/)
    await send(tmux, 'third')
    await tmux.waitFor(/Run bash: ls \| sort\?[\s\S]*Yes, and allow each part \("ls …", "sort …"\)[\s\S]*Yes, and allow every bash call for the rest of this session/)
    await settle()
    await tmux.keys(['Escape'])
    await tmux.waitFor(/Third done\./)
  }, 90_000)
})
