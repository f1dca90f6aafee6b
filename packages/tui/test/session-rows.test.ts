// Which stored sessions the pickers and --continue offer: sessions with a turn, newest first,
// never the one the chat is in; the picker says so when a filter matches none of them.
import { afterEach, describe, expect, it } from 'vitest'
import { createScriptedProvider } from '@dsh/llm-scripted'
import { createHost, type Host } from '@dsh/runtime'
import { tempTree, type TempTree } from '@dsh/testkit'
import { SessionPicker } from '../src/screen/session-picker.ts'
import { latestSessionIn, resumableRows, sessionRows } from '../src/sessions/session-rows.ts'
import { createTheme } from '../src/theme.ts'

let tree: TempTree | undefined
let host: Host | undefined
afterEach(async () => {
  await host?.dispose()
  await tree?.dispose()
})

const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20))

describe('resumable sessions', () => {
  it('leave out sessions without a turn and the current one; --continue skips a newer empty session', async () => {
    tree = await tempTree({ 'work/': null })
    host = await createHost({ dshHome: tree.path('home'), log: () => undefined })
    const cwd = tree.path('work')
    const provider = createScriptedProvider({ responses: [{ text: 'answer' }, { text: 'second answer' }] })
    const talked = await host.startAgent({ cwd, provider })
    await talked.prompt('a real question')
    talked.dispose()
    await pause()
    const current = await host.startAgent({ cwd, provider })
    await current.prompt('the chat I am in')
    await pause()
    const empty = await host.startAgent({ cwd, provider })
    expect(sessionRows(host.sessions).map((row) => row.id)).toEqual([empty.session.id, current.session.id, talked.session.id])
    expect(resumableRows(host.sessions, current.session.id).map((row) => row.title)).toEqual(['a real question'])
    expect(latestSessionIn(host.sessions, cwd)?.title).toBe('the chat I am in')
    current.dispose()
    empty.dispose()
  })

  it('the picker says when the filter matches no session', () => {
    const theme = createTheme({ color: false, attributes: false })
    const picker = new SessionPicker({ rows: [{ id: '20261201-000000-abcdef', title: 'fix the build', updatedAt: new Date(0), turns: 2, cwd: '/w' }], theme, now: new Date(60_000), shortPath: (path) => path, done: () => undefined })
    for (const key of 'zzz') picker.handleInput(key)
    expect(picker.render(80).slice(1)).toEqual(['Resume a session: zzz', '  no session matches the filter', '↑/↓ choose · Enter resume · Esc cancel'])
  })
})
