// Attack (issue 19, C / item 3) through the built binary: a sandboxed background process started
// by the model's bash call swaps a directory inside the working directory for a link to a
// directory outside every root, over and over, while the model makes write calls into that
// directory. No write ever lands outside. The count of writes through the binary is smaller
// than the property test's 10,000 (fs-local test/write-race.test.ts): every call here is a whole
// tool call with a durable session-log append, which costs milliseconds on this loaded machine.
import { fileURLToPath } from 'node:url'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { readRequests, runDsh, writeScript } from '../../../../apps/cli/test/run-dsh.ts'

const WRITES = 500
const swapper = fileURLToPath(new URL('../../../fs-local/test/fixtures/dir-swapper.mjs', import.meta.url))

let tree: TempTree | undefined
afterEach(async () => {
  if (tree !== undefined) writeFileSync(tree.path('repo/stop'), '')
  await tree?.dispose()
  tree = undefined
})

it(`${WRITES} write calls raced against a sandboxed directory-to-link swapper never land outside the roots`, async () => {
  tree = await tempTree({ 'repo/d/keep.txt': 'x', 'outside/': null, 'tmp/': null, 'scripts/': null })
  const repo = tree.path('repo')
  const outside = tree.path('outside')
  // The swapper prints "ready" after its first swaps; the bash call returns once it has.
  const start = `(nohup ${JSON.stringify(process.execPath)} ${JSON.stringify(swapper)} ${JSON.stringify(repo)} ${JSON.stringify(outside)} ${JSON.stringify(join(repo, 'stop'))} > swapper.out 2>&1 &) ; until grep -q ready swapper.out 2>/dev/null; do sleep 0.05; done; echo started`
  const writes = Array.from({ length: WRITES }, (_, i) => ({ name: 'write', arguments: { file_path: 'd/f.txt', content: `write ${i}\n` } }))
  const script = writeScript(tree.path('scripts'), 'race.json', {
    responses: [{ toolCalls: [{ name: 'bash', arguments: { command: start } }] }, { toolCalls: writes }, { toolCalls: [{ name: 'bash', arguments: { command: 'touch stop; echo stopped' } }] }, { text: 'done' }],
  })
  const log = tree.path('requests.jsonl')
  const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', repo, '--model', `scripted:${script}`, '--request-log', log, 'go'], { cwd: tree.root, env: { TMPDIR: tree.path('tmp') }, timeoutMs: 240_000 })
  expect(result.code, result.stderr).toBe(0)
  const results = readRequests(log).at(-1)?.messages.filter((message) => message.role === 'tool').map((message) => message.content ?? '') ?? []
  expect(results[0]).toContain('started')
  expect(results).toHaveLength(WRITES + 2)
  expect(readdirSync(outside)).toEqual([])
  // Each write landed inside, or failed closed (the directory was a link or missing at that instant).
  for (const text of results.slice(1, -1)) expect(text).toMatch(/^(Created d\/f\.txt|Overwrote d\/f\.txt|Not found: d\/f\.txt|Cannot write d\/f\.txt)/)
  expect(existsSync(join(outside, 'f.txt'))).toBe(false)
}, 300_000)
