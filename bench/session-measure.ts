/**
 * One measurement of the session benchmark, in a process of its own so its peak RSS is its own:
 *
 * - `resume HOME ID ROUNDS`: the CLI's composition (`composeHost`: local filesystem, tools,
 *   workspace-context, settings), then per round `startAgent({ resume })` (load, recovery, inbox)
 *   and a prompt, timed until its request body is handed over (history derivation and the
 *   plugins' first pre-step); the scripted model answers at once. Automatic compaction is off: this measures resuming, not
 *   summarising.
 * - `list DIR ROUNDS`: `SessionStore.list()` cold (the listing index removed first) and warm.
 *
 * Prints one JSON line: per-round milliseconds (wall, and CPU for resume) and the process's peak
 * RSS in bytes.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { ModelProvider } from '@dsh/contracts'
import { createScriptedProvider } from '@dsh/llm-scripted'
import { SessionStore } from '@dsh/runtime'
import { ToolProcesses } from '@dsh/tools'
import { composeHost } from '../apps/cli/src/compose.ts'

const peakRss = (): number => process.resourceUsage().maxRSS * 1024

function collectGarbage(): void {
  // Present only under `node --expose-gc`; without it the rounds still run.
  const gc: unknown = Reflect.get(globalThis, 'gc')
  if (typeof gc === 'function') gc()
}

async function resume(home: string, id: string, rounds: number): Promise<object> {
  const baselineRss = process.memoryUsage().rss
  const provider: ModelProvider = createScriptedProvider({ responses: Array.from({ length: rounds }, () => ({ text: 'ok' })) })
  const { host } = await composeHost({ dshHome: home, cwd: home, config: {}, log: () => undefined, provider, processes: new ToolProcesses(), agents: { autoCompactShare: 0.8, autoCompactUseModel: false } })
  const resumeMs: number[] = []
  const resumeCpuMs: number[] = []
  const firstRequestMs: number[] = []
  try {
    for (let round = 0; round < rounds; round++) {
      collectGarbage()
      const started = performance.now()
      const cpu = process.cpuUsage()
      let requested = 0
      const agent = await host.startAgent({
        cwd: home,
        provider,
        resume: id,
        onRequest: () => {
          requested ||= performance.now()
        },
      })
      const resumed = performance.now()
      const used = process.cpuUsage(cpu)
      resumeCpuMs.push((used.user + used.system) / 1000)
      await agent.prompt('one more thing')
      agent.dispose()
      resumeMs.push(resumed - started)
      firstRequestMs.push(requested - started)
    }
  } finally {
    await host.dispose()
  }
  return { resumeMs, resumeCpuMs, firstRequestMs, peakRss: peakRss(), baselineRss }
}

function list(directory: string, rounds: number): object {
  const baselineRss = process.memoryUsage().rss
  const store = new SessionStore({ directory, clock: () => new Date(), warn: () => undefined })
  const coldMs: number[] = []
  const warmMs: number[] = []
  let rows = 0
  for (let round = 0; round < rounds; round++) {
    rmSync(join(directory, '.list-index.json'), { force: true })
    collectGarbage()
    let started = performance.now()
    rows = store.list().length
    coldMs.push(performance.now() - started)
    started = performance.now()
    store.list()
    warmMs.push(performance.now() - started)
  }
  return { coldMs, warmMs, rows, peakRss: peakRss(), baselineRss }
}

const [mode, first = '', second = '', third = ''] = process.argv.slice(2)
const result = mode === 'resume' ? await resume(first, second, Number(third)) : list(first, Number(second))
process.stdout.write(`${JSON.stringify(result)}\n`)
