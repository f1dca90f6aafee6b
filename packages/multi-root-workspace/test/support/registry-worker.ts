// A separate process that mutates a registry: `add HOME PRIMARY PATH` or `hold-lock LOCKFILE MS`
// (takes the registry lock and keeps it, to test waiting and takeover from other processes).
import { setTimeout as sleep } from 'node:timers/promises'
import { RootRegistry } from '../../src/index.ts'
import { withRegistryLock } from '../../src/registry-lock.ts'

const [command = '', first = '', second = '', third = ''] = process.argv.slice(2)
if (command === 'add') {
  await new RootRegistry({ dshHome: first, lock: { timeoutMs: 60_000 } }).add(second, third)
} else if (command === 'hold-lock') {
  await withRegistryLock({ file: first }, async () => {
    process.stdout.write('held\n')
    await sleep(Number(second))
  })
}
