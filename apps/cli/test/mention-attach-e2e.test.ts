// `@file` in a prompt sends the file's contents with it, through the built binary with the
// scripted model: the first request carries, right after the prompt, one message with each
// mentioned file as the read tool shows it and each mentioned directory of the working directory
// as glob lists it (ignore files honoured); a directory outside it is named as not listed; a path
// that names nothing stays text; a file in a secret location is named as not attached with the policy's reason, never
// its contents; the second step does not attach again, a resumed session keeps the one message,
// and agent.attachMentions: false turns it off.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { readRequests, runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

const userTexts = (log: string, index: number): string[] => (readRequests(log)[index]?.messages ?? []).filter((message) => message.role === 'user').map((message) => message.content ?? '')

describe('@-mentioned files', () => {
  it('go with the prompt as the read tool shows them, once, and secrets never', async () => {
    tree = await tempTree({
      'repo/.git/': null,
      'repo/.gitignore': 'docs/build/\n',
      'repo/src/app.ts': 'export const a = 1\nexport const b = 2\n',
      'repo/docs/a.md': '# A\n',
      'repo/docs/guide/b.md': '# B\n',
      'repo/docs/build/out.html': '<p>built</p>\n',
      'outside/notes.md': 'not listed\n',
      'off.yaml': 'agent:\n  attachMentions: false\n',
    })
    // Newest first, as glob lists a single page: b.md, then a.md.
    utimesSync(tree.path('repo/docs/a.md'), 1_600_000_000, 1_600_000_000)
    utimesSync(tree.path('repo/docs/guide/b.md'), 1_700_000_000, 1_700_000_000)
    mkdirSync(tree.path('.ssh'), { recursive: true })
    writeFileSync(tree.path('.ssh/id_ed25519'), 'PRIVATE KEY\n')
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'glob', arguments: { pattern: '*' } }] }, { text: 'seen' }, { text: 'again' }] })
    const log = tree.path('requests.jsonl')
    const base = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log]
    const prompt = `explain @src/app.ts, compare @docs and @missing.ts, look in @${tree.path('outside')} and check @${tree.path('.ssh/id_ed25519')}`
    const first = await runDsh([...base, prompt], { cwd: tree.root })
    expect(first.code, first.stderr).toBe(0)
    const [typed, attached, ...rest] = userTexts(log, 0).filter((text) => !text.startsWith('<system-reminder>'))
    expect(typed).toBe(prompt)
    expect(rest).toEqual([])
    expect(attached).toBe(
      [
        'Files the user attached with @ (files as the read tool shows them, directories as glob lists them; read or glob again for any part left out):',
        '<file path="src/app.ts">\n     1\texport const a = 1\n     2\texport const b = 2\n</file>',
        '<directory path="docs">\ndocs/guide/b.md\ndocs/a.md\n</directory>',
        `@${tree.path('outside')} was not attached: only directories inside the working directory are listed with the prompt; list it with the glob tool`,
        `@${tree.path('.ssh/id_ed25519')} was not attached: ${attached?.split('was not attached: ').at(-1) ?? ''}`,
      ].join('\n\n'),
    )
    expect(attached).not.toContain('PRIVATE KEY')
    expect(attached).toMatch(/was not attached: The read call was denied: \S+ is inside \S+, where credentials /)
    // The second step (after the glob call) sends the same history: the attachment once.
    expect(userTexts(log, 1).filter((text) => text.startsWith('Files the user attached'))).toHaveLength(1)
    // Each run's script starts again (a glob step, then an answer): two requests per run.
    const second = await runDsh([...base, '--resume', sessionIdOf(first.stderr), 'and the rest?'], { cwd: tree.root })
    expect(second.code, second.stderr).toBe(0)
    expect(userTexts(log, 2).filter((text) => text.startsWith('Files the user attached'))).toHaveLength(1)
    const off = await runDsh([...base, '--config', tree.path('off.yaml'), 'explain @src/app.ts'], { cwd: tree.root })
    expect(off.code, off.stderr).toBe(0)
    expect(readRequests(log)).toHaveLength(6)
    expect(userTexts(log, 4).some((text) => text.startsWith('Files the user attached'))).toBe(false)
  }, 60_000)
})
