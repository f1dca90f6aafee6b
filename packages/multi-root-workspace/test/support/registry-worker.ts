// A separate process that mutates a registry: `add HOME PRIMARY PATH` or `hold-lock LOCKFILE`
// (takes the registry lock and keeps it until its stdin closes, to test waiting from other processes).
import { RootRegistry } from '../../src/index.ts'
import { withRegistryLock } from '../../src/registry-lock.ts'

const [command = '', first = '', second = '', third = ''] = process.argv.slice(2)
if (command === 'add') {
  await new RootRegistry({ dshHome: first, lock: { timeoutMs: 60_000 } }).add(second, third)
} else if (command === 'hold-lock') {
  await withRegistryLock({ file: first }, async () => {
    process.stdout.write('held\n')
    await new Promise((resolve) => process.stdin.on('end', resolve).resume())
  })
}
