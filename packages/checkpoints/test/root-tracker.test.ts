// The tracker against the real filesystem: random batches of shell-like changes (create, append,
// delete, rename, chmod, new directories) in a git repository and in a plain directory; after
// each batch a sync reports the changes (a same-size rewrite included), and putting every reported pre-image back, newest batch
// first, restores the starting tree byte for byte. The byte budget never lets stored bytes pass it.
import { execFileSync } from 'node:child_process'
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { ByteBudget } from '../src/byte-budget.ts'
import { applyState } from '../src/file-state.ts'
import { ObjectStore } from '../src/object-store.ts'
import { RootTracker, type RootChange } from '../src/root-tracker.ts'
import { snapshot } from '../../../apps/cli/test/tree-snapshot.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

type Op = { kind: 'create' | 'append' | 'rewrite' | 'delete' | 'rename' | 'chmod' | 'mkdir'; file: number; other: number }
const op = fc.record({ kind: fc.constantFrom('create', 'append', 'rewrite', 'delete', 'rename', 'chmod', 'mkdir'), file: fc.nat(7), other: fc.nat(7) }) as fc.Arbitrary<Op>
const name = (index: number): string => (index < 4 ? `f${index}.txt` : `dir${index % 2}/g${index}.txt`)

function perform(root: string, { kind, file, other }: Op): void {
  const path = join(root, name(file))
  const exists = existsSync(path)
  switch (kind) {
    case 'create':
      mkdirSync(join(path, '..'), { recursive: true })
      writeFileSync(path, `created ${file}-${other}\n`)
      return
    case 'append':
      if (exists) appendFileSync(path, `line ${other}\n`)
      return
    case 'rewrite':
      // Same size, other bytes, at once: the stat key may not move within one timestamp tick.
      if (exists) writeFileSync(path, readFileSync(path, 'utf8').replace(/./g, String(other % 10)))
      return
    case 'delete':
      if (exists) rmSync(path)
      return
    case 'rename':
      if (exists && file !== other) {
        mkdirSync(join(root, name(other), '..'), { recursive: true })
        renameSync(path, join(root, name(other)))
      }
      return
    case 'chmod':
      if (exists) chmodSync(path, other % 2 === 0 ? 0o755 : 0o600)
      return
    case 'mkdir':
      mkdirSync(join(root, `new${other}`, 'deep'), { recursive: true })
      writeFileSync(join(root, `new${other}`, 'deep', 'x.txt'), `deep ${file}\n`)
      return
    default: {
      const unreachable: never = kind
      throw new Error(String(unreachable))
    }
  }
}

async function roundTrip(git: boolean, batches: Op[][]): Promise<void> {
  tree = await tempTree({ 'root/f0.txt': 'zero\n', 'root/f1.txt': 'one\n', 'root/dir0/g4.txt': 'four\n', 'store/': null })
  const root = tree.path('root')
  if (git) {
    writeFileSync(join(root, '.gitignore'), 'ignored/\n')
    execFileSync('git', ['init', '-q', root])
    execFileSync('git', ['-C', root, 'add', '-A'])
    execFileSync('git', ['-C', root, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init'])
  }
  const start = snapshot(root)
  const store = new ObjectStore(tree.path('store'))
  const tracker = new RootTracker({ root, store, maxFileBytes: 1 << 20, budget: new ByteBudget(1 << 30, 0) })
  const seen: RootChange[][] = []
  try {
    await tracker.sync()
    for (const batch of batches) {
      for (const step of batch) perform(root, step)
      seen.push(await tracker.sync())
    }
  } finally {
    tracker.close()
  }
  for (const changes of seen.toReversed()) for (const change of changes) applyState(change.path, change.before, store)
  // Directories the batches created stay (a rewind restores files); only the files must match.
  expect(snapshot(root)).toEqual(start)
  await tree.dispose()
}

describe('RootTracker', () => {
  it('reports every change exactly in a git repository', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.array(op, { maxLength: 6 }), { minLength: 1, maxLength: 4 }), (batches) => roundTrip(true, batches)), { numRuns: 25 })
  })

  it('reports every change exactly in a plain directory', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.array(op, { maxLength: 6 }), { minLength: 1, maxLength: 4 }), (batches) => roundTrip(false, batches)), { numRuns: 25 })
  })
})

describe('ByteBudget', () => {
  it('never lets spent bytes pass the budget when callers ask first', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.array(fc.nat(3000)), (max, sizes) => {
        const budget = new ByteBudget(max, 0)
        let refused = false
        for (const size of sizes) {
          if (budget.allows(size)) budget.spend(size)
          else refused = true
        }
        expect(budget.used).toBeLessThanOrEqual(max)
        expect(budget.takeExceeded()).toBe(refused)
        expect(budget.takeExceeded()).toBe(false)
      }),
    )
  })
})
