/**
 * `npm run bench:hooks`: the cost of an empty PreToolUse hook (`true`) per tool call (issue 26).
 * In one process, a host with the hooks plugin and one `true` hook on every tool, and the same
 * host without it, each run a scripted turn of CALLS `read` calls of a small file, alternating
 * which goes first every round (warm-up rounds excluded). Prints the median time per call with
 * and without the hook, the paired overhead per call and the ratio. Report only; nothing gates on it.
 *
 * Environment: `DSH_BENCH_ROUNDS` (default 15), `DSH_BENCH_WARMUP` (default 2), `DSH_BENCH_CALLS` (default 20).
 */
import { performance } from 'node:perf_hooks'
import type { ModelScript } from '@dsh/llm-scripted'
import { createHooksPlugin } from '@dsh/hooks'
import { composeTestHost, tempTree } from '@dsh/testkit'
import { median } from './stats.ts'

const positive = (raw: string | undefined, fallback: number): number => {
  const value = Number(raw)
  return Number.isInteger(value) && value > 0 ? value : fallback
}

const rounds = positive(process.env['DSH_BENCH_ROUNDS'], 15)
const warmups = positive(process.env['DSH_BENCH_WARMUP'], 2)
const calls = positive(process.env['DSH_BENCH_CALLS'], 20)

const tree = await tempTree({ 'repo/a.txt': 'alpha\n', 'home-on/': null, 'home-off/': null })

const script: ModelScript = { responses: [{ toolCalls: Array.from({ length: calls }, () => ({ name: 'read', arguments: { file_path: 'a.txt' } })) }, { text: 'done' }] }

async function host(withHook: boolean) {
  const test = await composeTestHost({ dshHome: tree.path(withHook ? 'home-on' : 'home-off'), writableRoots: [tree.path('repo')] })
  if (withHook) {
    await test.host.ctx.plugin(
      createHooksPlugin({ cwd: tree.path('repo'), dshHome: tree.path('home-on'), config: { file: 'bench', section: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] } }, env: { PATH: process.env['PATH'] }, permissionMode: 'full-auto', warn: () => undefined }),
    )
  }
  return test
}

const on = await host(true)
const off = await host(false)

/** Milliseconds per call of one turn. */
async function perCall(test: Awaited<ReturnType<typeof host>>): Promise<number> {
  const agent = await test.start({ cwd: tree.path('repo'), script })
  const started = performance.now()
  await agent.prompt('read it')
  const elapsed = performance.now() - started
  agent.dispose()
  return elapsed / calls
}

const withHook: number[] = []
const without: number[] = []
for (let round = 0; round < rounds + warmups; round++) {
  const order = round % 2 === 0 ? [true, false] : [false, true]
  for (const hooked of order) {
    const ms = await perCall(hooked ? on : off)
    if (round >= warmups) (hooked ? withHook : without).push(ms)
  }
}
await on.host.dispose()
await off.host.dispose()
await tree.dispose()

const paired = median(withHook.map((value, i) => value - (without[i] ?? Number.NaN)))
const fmt = (ms: number): string => `${ms.toFixed(2)} ms`
console.log(`empty PreToolUse hook (true), ${rounds} rounds of ${calls} read calls (${warmups} warm-up rounds)`)
console.log(`  per call without hook: ${fmt(median(without))}`)
console.log(`  per call with hook:    ${fmt(median(withHook))}`)
console.log(`  overhead per call:     ${fmt(paired)} (paired median)`)
console.log(`  ratio:                 ${(median(withHook) / median(without)).toFixed(2)}x`)
