// `dsh run "fix @packages/api/src/server.ts"` with the built binary: the mentioned file's nested
// AGENTS.md is in the very first request, right after the baseline; a folder mention does the
// same for the folder; the model's later read of the file brings nothing new.
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { readRequests, runDsh, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('@ mentions with the built binary', () => {
  it('the first request carries the instructions of the mentioned file and folder', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'repo/AGENTS.md': 'Root rule.\n', 'repo/packages/api/AGENTS.md': 'API rule.\n', 'repo/packages/api/src/server.ts': 'export {}\n', 'repo/packages/web/CLAUDE.md': 'Web rule.\n', 'home/': null, 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'run.json', { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'packages/api/src/server.ts' } }] }, { text: 'done' }] })
    const log = tree.path('requests.jsonl')
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log, 'fix @packages/api/src/server.ts, see @packages/web.'], { cwd: tree.root })
    expect(result.code, result.stderr).toBe(0)
    const [first, second] = readRequests(log)
    const users = (first?.messages ?? []).filter((message) => message.role === 'user').map((message) => message.content ?? '')
    expect(users[0]).toBe('fix @packages/api/src/server.ts, see @packages/web.')
    expect(users[1]).toContain('Instructions from: AGENTS.md')
    expect(users[2]).toMatch(/Additional instructions from: packages\/api\/AGENTS\.md[\s\S]*API rule\.[\s\S]*Additional instructions from: packages\/web\/CLAUDE\.md[\s\S]*Web rule\./)
    // The read of the mentioned file adds no instruction message.
    const later = (second?.messages ?? []).filter((message) => message.role === 'user').map((message) => message.content ?? '')
    expect(later.filter((text) => text.includes('Additional instructions from:'))).toHaveLength(1)
  })
})
