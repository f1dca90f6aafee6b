// Property tests of the two state machines. Registry: whatever sequence of additions, removals,
// deletions and re-pointed links happens, the registered roots never overlap the primary root or
// each other, the file stays readable, and a root is available exactly when its path resolves to
// its recorded directory. Instructions: after every turn, what the model was told about the
// top-level files of the roots (derived from the log) matches the disk.
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { contentDigest, isInsideRoot } from '@dsh/workspace-context'
import { tempTree } from '@dsh/testkit'
import { RootRegistry } from '../src/index.ts'
import { deriveDelivered, fileScope } from '../src/delivered-state.ts'
import { multiRootRig } from './support/rig.ts'

const DIRS = ['x', 'x/y', 'x/y/z', 'w', 'w/v', 'u', 'primary/inner'] as const

type RegistryOp = { kind: 'add'; dir: number } | { kind: 'remove'; ordinal: number } | { kind: 'delete'; dir: number } | { kind: 'restore'; dir: number } | { kind: 'link'; target: number }

const registryOp: fc.Arbitrary<RegistryOp> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), dir: fc.nat(DIRS.length) }),
  fc.record({ kind: fc.constant('remove' as const), ordinal: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('delete' as const), dir: fc.nat(DIRS.length - 1) }),
  fc.record({ kind: fc.constant('restore' as const), dir: fc.nat(DIRS.length - 1) }),
  fc.record({ kind: fc.constant('link' as const), target: fc.nat(DIRS.length - 1) }),
)

describe('registry (property)', () => {
  it('keeps roots disjoint from the primary root and from each other, and states true to the disk', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(registryOp, { maxLength: 14 }), async (ops) => {
        const tree = await tempTree({ 'home/': null, 'primary/inner/': null, ...Object.fromEntries(DIRS.map((dir) => [`${dir}/`, null])) })
        try {
          symlinkSync(tree.path('x'), tree.path('link'))
          const registry = new RootRegistry({ dshHome: tree.path('home') })
          const primary = tree.path('primary')
          const paths = [...DIRS.map((dir) => tree.path(dir)), tree.path('link')]
          for (const op of ops) {
            if (op.kind === 'add') await registry.add(primary, paths[op.dir] ?? '').catch((error: unknown) => expect(error).toHaveProperty('code'))
            if (op.kind === 'remove') {
              const target = registry.list(primary).roots.find((root) => root.ordinal === op.ordinal)
              if (target !== undefined) await registry.remove(primary, target)
            }
            if (op.kind === 'delete') rmSync(tree.path(DIRS[op.dir] ?? ''), { recursive: true, force: true })
            if (op.kind === 'restore') mkdirSync(tree.path(DIRS[op.dir] ?? ''), { recursive: true })
            if (op.kind === 'link') {
              unlinkSync(tree.path('link'))
              symlinkSync(tree.path(DIRS[op.target] ?? ''), tree.path('link'))
            }
            const listed = registry.list(primary)
            expect(listed.problem).toBeUndefined()
            const recorded = listed.roots.map((root) => root.recordedPath)
            for (const [index, root] of recorded.entries()) {
              expect(isInsideRoot(primary, root) || isInsideRoot(root, primary)).toBe(false)
              for (const other of recorded.slice(index + 1)) expect(isInsideRoot(root, other) || isInsideRoot(other, root)).toBe(false)
            }
            for (const root of listed.roots) {
              const resolved = existsSync(root.path) ? realpathSync(root.path) : undefined
              expect(root.state === 'available').toBe(resolved === root.recordedPath)
            }
          }
        } finally {
          await tree.dispose()
        }
      }),
      { numRuns: 25 },
    )
  })
})

type FileOp = { kind: 'write'; root: number; text: string } | { kind: 'delete'; root: number } | { kind: 'toggle-root'; root: number }

const fileOp: fc.Arbitrary<FileOp> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), root: fc.nat(1), text: fc.string({ maxLength: 30 }) }),
  fc.record({ kind: fc.constant('delete' as const), root: fc.nat(1) }),
  fc.record({ kind: fc.constant('toggle-root' as const), root: fc.nat(1) }),
)

describe('instructions (property)', () => {
  it('after every turn the model knows exactly the top-level files of the available roots', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fileOp, { maxLength: 3 }), { minLength: 1, maxLength: 5 }), async (turns) => {
        const rig = await multiRootRig({ 'repo/.git/': null, 'r0/AGENTS.md': 'zero', 'r1/AGENTS.md': 'one' })
        try {
          const names = ['r0', 'r1']
          const registry = new RootRegistry({ dshHome: rig.tree.path('home') })
          for (const name of names) await registry.add(rig.tree.path('repo'), rig.tree.path(name))
          const agent = await rig.start('repo', { responses: turns.map((_, index) => ({ text: `turn ${index}` })) })
          for (const ops of turns) {
            for (const op of ops) {
              const root = rig.tree.path(names[op.root] ?? '')
              if (op.kind === 'write') writeFileSync(join(root, 'AGENTS.md'), op.text)
              if (op.kind === 'delete') rmSync(join(root, 'AGENTS.md'), { force: true })
              if (op.kind === 'toggle-root') {
                const listed = registry.list(rig.tree.path('repo')).roots.find((listedRoot) => listedRoot.recordedPath === root)
                if (listed === undefined) await registry.add(rig.tree.path('repo'), root)
                else await registry.remove(rig.tree.path('repo'), listed)
              }
            }
            await agent.prompt('next')
            const told = deriveDelivered(agent.session)
            const registered = new Set(registry.list(rig.tree.path('repo')).roots.map((root) => root.recordedPath))
            for (const name of names) {
              const root = rig.tree.path(name)
              const file = join(root, 'AGENTS.md')
              const expected = registered.has(root) && existsSync(file) ? contentDigest(readFileSync(file, 'utf8')) : undefined
              expect([name, told.files.get(fileScope(root, '.', 'AGENTS.md'))?.digest]).toEqual([name, expected])
              expect([name, told.roots.has(root)]).toEqual([name, registered.has(root)])
            }
          }
        } finally {
          await rig.dispose()
        }
      }),
      { numRuns: 20 },
    )
  })
})
