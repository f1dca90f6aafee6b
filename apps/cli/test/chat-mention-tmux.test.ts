// `@` in dsh chat on a real terminal (tmux): typing `@serv` pops the project's matching files and
// directories (the ignored build directory left out), Tab takes the highlighted one, and the sent
// prompt names the file as completed.
import { mkdirSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readRequests, writeScript } from './run-dsh.ts'
import { tmuxChat } from './tmux-chat.ts'

const chat = tmuxChat()

describe('@ completion in the chat', () => {
  it('pops fuzzy matches from the project as you type and Tab inserts the highlighted one', async () => {
    const w = await chat.workspace()
    for (const dir of ['.git', 'src/services', 'dist']) mkdirSync(`${w.repo}/${dir}`, { recursive: true })
    for (const file of ['src/server.ts', 'src/services/user-service.ts', 'dist/server.js']) writeFileSync(`${w.repo}/${file}`, '')
    writeFileSync(`${w.repo}/.gitignore`, 'dist/\n')
    const script = writeScript(w.tree.path('scripts'), 'mention.json', { responses: [{ text: 'Looked.' }] })
    const tmux = await chat.start(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log], { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    await tmux.keys(['look at @serv'], { literal: true })
    const screen = (await tmux.waitFor(/→ server\.ts +src\/\n +services\/ +src\/\n +user-service\.ts +src\/services\//)).join('\n')
    expect(screen).not.toContain('dist/')
    await tmux.keys(['Tab'])
    await tmux.waitFor(/look at @src\/server\.ts/)
    await tmux.keys(['Enter'])
    // The file went with the prompt, and the chat says so under it.
    await tmux.waitFor(/› look at @src\/server\.ts\n +attached: src\/server\.ts\n/)
    await tmux.waitFor(/Looked\./)
    const users = (readRequests(w.log)[0]?.messages ?? []).filter((message) => message.role === 'user').map((message) => message.content)
    expect(users[0]).toBe('look at @src/server.ts')
  }, 60_000)
})
