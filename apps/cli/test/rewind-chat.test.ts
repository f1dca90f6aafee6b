// `/rewind` in dsh chat (piped): the list of turns with their files, a preview that changes
// nothing, the rewind itself (files and conversation), and the next prompt continuing from before
// the rewound turn.
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

describe('/rewind in the chat', () => {
  it('lists, previews without changing anything, rewinds, and the conversation goes on from before the turn', async () => {
    tree = await tempTree({ 'repo/keep.txt': 'original\n', 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'chat.json', {
      responses: [
        { toolCalls: [{ name: 'write', arguments: { file_path: 'new.txt', content: 'made\n' } }] },
        { toolCalls: [{ name: 'bash', arguments: { command: 'echo changed > keep.txt' } }] },
        { text: 'made them' },
        { text: 'second answer' },
      ],
    })
    const log = tree.path('requests.jsonl')
    const input = 'make the files\n/rewind\n/rewind 1\n/rewind 1 yes\nsomething else\n/exit\n'
    const result = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log, '--permission-mode', 'full-auto'], input, { cwd: tree.root })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('1  make the files  (keep.txt, new.txt)\n/rewind N shows what a rewind to before turn N changes; /rewind N yes does it\n')
    expect(result.stdout).toContain('a rewind to before turn 1 would change:\n  restore keep.txt\n  remove new.txt\n  the conversation from turn 1 on')
    expect(result.stdout).toContain('rewound to before turn 1: 2 files, conversation\n  restored keep.txt\n  removed new.txt\n')
    expect(readFileSync(tree.path('repo/keep.txt'), 'utf8')).toBe('original\n')
    expect(existsSync(tree.path('repo/new.txt'))).toBe(false)
    const last = readRequests(log).at(-1)
    const users = (last?.messages ?? []).filter((message) => message.role === 'user').map((message) => message.content ?? '')
    expect(users.some((text) => text.includes('something else'))).toBe(true)
    expect(users.some((text) => text.includes('make the files'))).toBe(false)
  })
})
