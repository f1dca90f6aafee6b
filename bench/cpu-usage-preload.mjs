// Preloaded into a spawned `dsh` by the end-to-end benchmark (`node --import`): when the process
// exits, writes its own resource usage (user and system CPU of every thread, peak RSS) as JSON to
// the file named by DSH_BENCH_USAGE_FILE. Node cannot read a child's rusage after it is reaped, so
// the child reports its own; the exit handler runs after everything dsh does.
import { writeFileSync } from 'node:fs'

const file = process.env['DSH_BENCH_USAGE_FILE']
if (file !== undefined && file !== '') {
  process.on('exit', () => {
    const usage = process.resourceUsage()
    writeFileSync(file, JSON.stringify({ userMs: usage.userCPUTime / 1000, systemMs: usage.systemCPUTime / 1000, maxRssKiB: usage.maxRSS }))
  })
}
