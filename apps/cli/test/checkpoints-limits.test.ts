// The limits of checkpoints through the built binary: a file over checkpoints.maxFileBytes is
// named as not restorable (in --list and by the rewind, which restores the rest), and a turn that
// passes checkpoints.maxBytes prints one notice line and is marked in --list.
import { readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

const write = (file_path: string, content: string) => ({ toolCalls: [{ name: 'write', arguments: { file_path, content } }] })

async function session(config: string) {
  tree = await tempTree({ 'repo/small.txt': 'small\n', 'repo/big.txt': `${'x'.repeat(200)}\n`, 'scripts/': null })
  writeFileSync(tree.path('cfg.yaml'), config)
  const dsh = (args: readonly string[]) => runDsh(['--dsh-home', tree?.path('home') ?? '', ...args], { cwd: tree?.path('repo') ?? '' })
  const script = writeScript(tree.path('scripts'), 'limits.json', { responses: [write('small.txt', 'changed\n'), write('big.txt', 'shrunk\n'), { text: 'done' }] })
  const run = await dsh(['run', '--config', tree.path('cfg.yaml'), '--model', `scripted:${script}`, 'change both'])
  expect(run.code, run.stderr).toBe(0)
  return { dsh, run, id: sessionIdOf(run.stderr) }
}

describe('checkpoint limits', () => {
  it('names a file over maxFileBytes as not restorable and restores the rest', async () => {
    const { dsh, id } = await session('checkpoints:\n  maxFileBytes: 100\n')
    const list = await dsh(['rewind', id, '--list'])
    expect(list.stdout).toContain('   not restorable: big.txt\n')
    const rewound = await dsh(['rewind', id, '--to', '1'])
    expect(rewound.code, rewound.stderr).toBe(0)
    expect(rewound.stdout).toContain('  not restorable: big.txt (it was larger than checkpoints.maxFileBytes)\n')
    expect(readFileSync(tree?.path('repo/small.txt') ?? '', 'utf8')).toBe('small\n')
    expect(readFileSync(tree?.path('repo/big.txt') ?? '', 'utf8')).toBe('shrunk\n')
  })

  it('prints one notice when a turn passes maxBytes and marks the turn', async () => {
    const { dsh, run, id } = await session('checkpoints:\n  maxBytes: 10\n')
    expect(run.stderr.match(/^notice: the checkpoints of session \S+ reached checkpoints\.maxBytes \(10 bytes\); files changed from now on in this session cannot be restored by dsh rewind$/gm)).toHaveLength(1)
    const list = await dsh(['rewind', id, '--list'])
    expect(list.stdout).toContain('[over checkpoints.maxBytes]')
  })
})
