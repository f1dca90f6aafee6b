// `dsh run -o FILE` (`--output-last-message`, as codex exec): the final answer lands in FILE in
// the text and JSON formats; a run that fails rewrites FILE with what it has (a stale answer
// never survives); a FILE that cannot be written fails the run with one line.
import { readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelScript } from '@dsh/llm-scripted'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDsh, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('dsh run -o', () => {
  it('writes the final answer in every format, rewrites it after a failure, and says when it cannot', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'home/': null, 'scripts/': null })
    const out = tree.path('answer.txt')
    const run = (responses: ModelScript['responses'], ...extra: string[]) => runDsh(['--dsh-home', tree?.path('home') ?? '', 'run', '--cwd', tree?.path('repo') ?? '', '--model', `scripted:${writeScript(tree?.path('scripts') ?? '', 'run.json', { responses })}`, ...extra, 'go'], { cwd: tree?.root ?? '' })
    const text = await run([{ text: 'The answer.' }], '-o', out)
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toBe('The answer.\n')
    expect(readFileSync(out, 'utf8')).toBe('The answer.')
    const json = await run([{ text: 'In JSON.' }], '--output-last-message', out, '--output-format', 'json')
    expect(json.code, json.stderr).toBe(0)
    expect(readFileSync(out, 'utf8')).toBe('In JSON.')
    writeFileSync(out, 'stale answer of an earlier run')
    // An empty script: the model has nothing to say, and the run fails.
    const failed = await run([], '-o', out)
    expect(failed.code).not.toBe(0)
    expect(readFileSync(out, 'utf8')).toBe('')
    const nowhere = await run([{ text: 'Fine.' }], '-o', tree.path('missing/answer.txt'))
    expect(nowhere.code).toBe(1)
    expect(nowhere.stdout).toBe('Fine.\n')
    expect(nowhere.stderr).toMatch(new RegExp(`dsh: --output-last-message ${tree.path('missing/answer.txt').replaceAll('/', '\\/')}: ENOENT`))
  })
})
