// A PostToolUse hook that reformats the file a `write` just wrote (a Claude Code formatter hook,
// run unchanged) and rewind: the checkpoint records the file as the hook left it, so the rewind
// puts the original back without calling the hook's change "made outside dsh".
import { readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('rewind after a formatter hook', () => {
  it('restores the file the write and its PostToolUse hook changed, with no --force', { timeout: 60_000 }, async () => {
    tree = await tempTree({ 'repo/.git/': null, 'repo/a.ts': 'export const a = 1\n', 'scripts/': null })
    const t = tree
    const hook = `jq -r .tool_input.file_path | while read -r f; do printf '// formatted\\n' >> "$f"; done`
    writeFileSync(t.path('dsh.yaml'), JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: hook }] }] } }))
    const script = writeScript(t.path('scripts'), 'model.json', { responses: [{ toolCalls: [{ name: 'write', arguments: { file_path: t.path('repo/a.ts'), content: 'export const a = 2\n' } }] }, { text: 'ok' }] })
    const run = await runDsh(['--dsh-home', t.path('home'), 'run', '--cwd', t.path('repo'), '--config', t.path('dsh.yaml'), '--model', `scripted:${script}`, 'change a'], { cwd: t.root })
    expect(run.code, run.stderr).toBe(0)
    expect(readFileSync(t.path('repo/a.ts'), 'utf8')).toBe('export const a = 2\n// formatted\n')
    const rewound = await runDsh(['--dsh-home', t.path('home'), 'rewind', sessionIdOf(run.stderr), '--to', '1', '--code-only'], { cwd: t.path('repo') })
    expect(rewound.code, rewound.stderr).toBe(0)
    expect(rewound.stderr).not.toContain('changed outside dsh')
    expect(readFileSync(t.path('repo/a.ts'), 'utf8')).toBe('export const a = 1\n')
  })
})
