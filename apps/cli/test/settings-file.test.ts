// $DSH_HOME/settings.yaml through the built binary: overrides the config file, bad values are one clear line.
import { mkdirSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

describe('settings.yaml', () => {
  it('overrides the config file field by field (automatic compaction share)', async () => {
    tree = await tempTree({ 'repo/': null, 'scripts/': null, 'dsh.yaml': 'model:\n  contextWindow: 2000\n  autoCompactShare: 1\n' })
    mkdirSync(tree.path('home'))
    writeFileSync(tree.path('home/settings.yaml'), '# tuned by hand\nagent:\n  autoCompactShare: 0.05\n')
    // A long first answer: compacting it frees a real share of the request.
    const one = writeScript(tree.path('scripts'), 'one.json', { responses: [{ text: `first answer ${'detail '.repeat(3000)}` }] })
    const two = writeScript(tree.path('scripts'), 'two.json', { responses: [{ text: 'second answer' }] })
    const base = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--config', tree.path('dsh.yaml')]
    const first = await runDsh([...base, '--model', `scripted:${one}`, 'first question'], { cwd: tree.root })
    const id = sessionIdOf(first.stderr)
    const second = await runDsh([...base, '--model', `scripted:${two}`, '--resume', id, 'second question'], { cwd: tree.root })
    expect(second.stdout).toBe('second answer\n')
    expect(second.stderr).toMatch(/automatic compaction: about \d+ tokens passed 5% of the 2000-token window/)
    const shown = await runDsh(['--dsh-home', tree.path('home'), 'sessions', 'show', id, '--messages'], { cwd: tree.root })
    expect(shown.stdout).toContain('--- user (compaction)')
  })

  it('a wrong type in settings.yaml is one line naming the key, and the run continues with base values', async () => {
    tree = await tempTree({ 'repo/': null, 'scripts/': null })
    mkdirSync(tree.path('home'))
    writeFileSync(tree.path('home/settings.yaml'), 'agent:\n  autoCompactShare: lots\n')
    const script = writeScript(tree.path('scripts'), 'one.json', { responses: [{ text: 'fine' }] })
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, 'hi'], { cwd: tree.root })
    expect(result).toMatchObject({ code: 0, stdout: 'fine\n' })
    const lines = result.stderr.trim().split('\n').filter((line) => !line.startsWith('session: '))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^settings\.yaml: agent\.autoCompactShare: .*number.*; using base values$/)
  })
})
