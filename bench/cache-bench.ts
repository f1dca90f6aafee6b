/**
 * `npm run bench:cache` (issue 20): a 12-turn session of the built `dsh run` (then `--resume`)
 * against the testkit's DeepSeek imitation, with maintainer-doc-guard off and on. Every plugin the
 * product has is on (instruction files, nested ones included, an additional root with its own
 * AGENTS.md; the guard with workspace-level documents in the second run). Prints, per request, the
 * prompt tokens, the cache-hit tokens and the first byte at which the prompt departs from the
 * previous request plus its answer; then the refused requests and the cache-hit share.
 * Goals: 0 refused, hit share ≥ 97 % with the guard off and ≥ 95 % with it on.
 */
import { fileURLToPath } from 'node:url'
import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { startDeepSeekServer, tempTree, type DeepSeekRecord } from '@dsh/testkit'
import { benchAnswer, benchTree, promptOf, TURNS } from './cache-session.ts'

const dsh = fileURLToPath(new URL('../node_modules/.bin/dsh', import.meta.url))

/** Figures of one session. */
interface SessionFigures {
  readonly label: string
  readonly records: readonly DeepSeekRecord[]
}

async function runSession(label: string, config: string): Promise<SessionFigures> {
  const tree = await tempTree(benchTree(), 'dsh-bench-cache-')
  const server = await startDeepSeekServer({ answers: benchAnswer, reasoningRule: 'strict', apiKey: 'sk-bench' })
  try {
    writeFileSync(tree.path('dsh.yaml'), config)
    let id: string | undefined
    for (let turn = 1; turn <= TURNS; turn++) {
      const args = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--config', tree.path('dsh.yaml'), '--base-url', server.baseUrl, '--add-dir', tree.path('shared'), ...(id === undefined ? [] : ['--resume', id]), promptOf(turn)]
      // spawnSync would block the imitation's event loop: run it asynchronously.
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(dsh, args, { cwd: tree.root, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tree.root, NO_COLOR: '1', DEEPSEEK_API_KEY: 'sk-bench' }, stdio: ['ignore', 'ignore', 'pipe'] })
        let stderr = ''
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
        child.on('close', (code) => resolve({ code, stderr }))
      })
      if (result.code !== 0) process.stderr.write(`${label} turn ${turn}: exit ${result.code}\n${result.stderr}\n`)
      id ??= /^session: (\S+)$/m.exec(result.stderr)?.[1]
    }
    return { label, records: [...server.records] }
  } finally {
    await server.close()
    await tree.dispose()
  }
}

/** The byte offset at which `prompt` stops extending `previous` (undefined: it extends it entirely). */
function departure(previous: string | undefined, prompt: string): number | undefined {
  if (previous === undefined) return 0
  const length = Math.min(previous.length, prompt.length)
  let index = 0
  while (index < length && previous.charCodeAt(index) === prompt.charCodeAt(index)) index++
  return index === previous.length ? undefined : Buffer.byteLength(prompt.slice(0, index))
}

function report(figures: SessionFigures): { share: number; refused: number } {
  const lines = [`\n== ${figures.label} ==`, 'req  status  prompt tok   hit tok   hit %   departs at byte (of previous request + answer)']
  let previous: string | undefined
  let prompt = 0
  let hit = 0
  let refused = 0
  figures.records.forEach((record, index) => {
    if (record.method !== 'POST') return
    if (record.status !== 200) {
      refused++
      lines.push(`${String(index + 1).padStart(3)}  ${record.status}     ${record.error?.message ?? ''}`)
      return
    }
    const cache = record.cache
    const text = record.prompt ?? ''
    const departs = departure(previous, text)
    const previousBytes = previous === undefined ? 0 : Buffer.byteLength(previous)
    if (cache !== undefined) {
      prompt += cache.promptTokens
      hit += cache.hitTokens
      const share = cache.promptTokens === 0 ? 0 : (100 * cache.hitTokens) / cache.promptTokens
      const where = departs === undefined ? '— (extends it)' : `${departs} of ${previousBytes}`
      lines.push(`${String(index + 1).padStart(3)}  200  ${String(cache.promptTokens).padStart(11)}  ${String(cache.hitTokens).padStart(8)}  ${share.toFixed(1).padStart(6)}   ${where}`)
    }
    previous = record.promptWithAnswer ?? record.prompt
  })
  const share = prompt === 0 ? 0 : (100 * hit) / prompt
  lines.push(`requests ${figures.records.filter((record) => record.method === 'POST').length}, refused ${refused}; prompt tokens ${prompt}, cache hits ${hit}: hit share ${share.toFixed(1)} %`)
  process.stdout.write(`${lines.join('\n')}\n`)
  return { share, refused }
}

if (!existsSync(dsh)) {
  process.stderr.write(`${dsh} is missing: run npm run build first\n`)
  process.exit(2)
}
const off = report(await runSession('maintainer-doc-guard off', 'maintainerDocGuard:\n  enabled: false\n'))
const on = report(await runSession('maintainer-doc-guard on', 'maintainerDocGuard:\n  enabled: true\n'))
process.stdout.write(`\nsummary: guard off ${off.share.toFixed(1)} % (goal ≥ 97 %), guard on ${on.share.toFixed(1)} % (goal ≥ 95 %); refused ${off.refused + on.refused} (goal 0)\n`)
