/**
 * The cost of an empty PreToolUse hook (`true`) per tool call (issue 26), the last section of
 * `npm run bench` (alone: `npm run bench:hooks`). In one process, a host with the hooks plugin and
 * one `true` hook on every tool, and the same host without it, each run a scripted turn of CALLS
 * `read` calls of a small file, alternating which goes first every round (warm-up rounds
 * excluded). Reports the median time per call with and without the hook, the paired overhead per
 * call and the ratio. Report only; nothing gates on it.
 *
 * Environment (read by bench/run.ts): `DSH_BENCH_HOOK_ROUNDS` (default 15), `DSH_BENCH_WARMUP`
 * (default 2), `DSH_BENCH_HOOK_CALLS` (default 20).
 */
import { performance } from 'node:perf_hooks'
import type { ModelScript } from '@dsh/llm-scripted'
import { createHooksPlugin } from '@dsh/hooks'
import { composeTestHost, tempTree, type TempTree } from '@dsh/testkit'
import { median } from './stats.ts'

const fmt = (ms: number): string => `${ms.toFixed(2)} ms`

/** Rounds of the comparison. */
export interface HookBenchOptions {
  readonly rounds: number
  readonly warmups: number
  /** Read calls per scripted turn. */
  readonly calls: number
}

async function benchHost(tree: TempTree, withHook: boolean) {
  const test = await composeTestHost({ dshHome: tree.path(withHook ? 'home-on' : 'home-off'), writableRoots: [tree.path('repo')] })
  if (withHook) {
    const section = { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] }
    await test.host.ctx.plugin(createHooksPlugin({ cwd: tree.path('repo'), dshHome: tree.path('home-on'), config: { file: 'bench', section }, env: { PATH: process.env['PATH'] }, permissionMode: 'full-auto', warn: () => undefined }))
  }
  return test
}

/** Runs the comparison; returns the report lines. */
export async function hookOverheadBench(options: HookBenchOptions): Promise<string[]> {
  const { rounds, warmups, calls } = options
  const tree = await tempTree({ 'repo/a.txt': 'alpha\n', 'home-on/': null, 'home-off/': null })
  const script: ModelScript = { responses: [{ toolCalls: Array.from({ length: calls }, () => ({ name: 'read', arguments: { file_path: 'a.txt' } })) }, { text: 'done' }] }
  const on = await benchHost(tree, true)
  const off = await benchHost(tree, false)
  /** Milliseconds per call of one turn. */
  const perCall = async (test: typeof on): Promise<number> => {
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
  return [
    `empty PreToolUse hook (true), ${rounds} rounds of ${calls} read calls (${warmups} warm-up rounds)`,
    `  per call without hook: ${fmt(median(without))}`,
    `  per call with hook:    ${fmt(median(withHook))}`,
    `  overhead per call:     ${fmt(paired)} (paired median)`,
    `  ratio:                 ${(median(withHook) / median(without)).toFixed(2)}x`,
  ]
}
