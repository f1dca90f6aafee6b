// Property: a session's incremental skill set (SessionSkills: rescans only what a step may have
// changed, keeps the set when a join finds no skills, reuses link roots and trust between full
// looks) always equals a fresh discovery of the same directories. Random sequences on the real
// filesystem: skills written through the `write` tool (its touch is seen), changed by a shell
// command (every directory looked at again), directories touched by `read` (with and without skill
// folders), and new turns.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionView, ToolExecution, ToolFinalOutcome } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { tempTree, type TempTree } from '@dsh/testkit'
import { descendantDirs } from '@dsh/workspace-context'
import { discoverSkills } from '../src/discover.ts'
import { SessionSkills } from '../src/session-skills.ts'
import type { CatalogItem } from '../src/catalog-delta.ts'
import type { SkillSet } from '../src/types.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

/** Where skills may live: the cwd's chain (0, 1) and packages below the cwd (2, 3); package 4 never holds any. */
const PLACES = ['', 'app', 'app/pkg-a', 'app/pkg-b', 'app/plain']
const NAMES = ['deploy', 'review', 'lint']

type Op =
  | { readonly kind: 'write' | 'shell'; readonly place: number; readonly name: number; readonly text: string; readonly remove: boolean }
  | { readonly kind: 'touch'; readonly place: number }
  | { readonly kind: 'turn' }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('write' as const, 'shell' as const), place: fc.nat(3), name: fc.nat(NAMES.length - 1), text: fc.constantFrom('one', 'two', 'three'), remove: fc.boolean() }),
  fc.record({ kind: fc.constant('touch' as const), place: fc.integer({ min: 2, max: 4 }) }),
  fc.record({ kind: fc.constant('turn' as const) }),
)

const view = (set: SkillSet | undefined): string[] => [...(set?.skills.entries() ?? [])].map(([key, skill]) => `${key} ${skill.file} ${skill.digest}`).toSorted()

const outcome = (touched: ToolFinalOutcome['touched']): ToolFinalOutcome => ({ isError: false, content: '', touched, additionalContexts: [], status: 'ok' })
const execution = (name: string): ToolExecution => ({ callId: 'c', name, arguments: {}, signal: new AbortController().signal, token: Symbol('t') })

const itemsView = (items: readonly CatalogItem[] | undefined): string[] => (items ?? []).map((item) => `${item.key} ${item.digest}`)

/** The skill folder name of `name` at `place`: shared by every place (clashes), or one per place (joins that only append). */
type Naming = (name: number, place: number) => string

async function sessionProperty(naming: Naming, seed?: number): Promise<{ appends: number }> {
  tree = await tempTree({ 'work/.git/': null, 'home/': null, 'os-home/': null })
  const t = tree
  let round = 0
  let appends = 0
  const writeSkill = (root: string, place: number, name: number, text: string): void => {
    const folder = join(root, PLACES[place] ?? '', '.dsh', 'skills', naming(name, place))
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'SKILL.md'), `---\nname: ${naming(name, place)}\ndescription: ${text} at ${place}\n---\nBody ${text}.\n`)
  }
  // Skills that exist before the session in the packages below the cwd: their first touch joins them.
  const seeded = fc.uniqueArray(fc.record({ place: fc.integer({ min: 2, max: 3 }), name: fc.nat(NAMES.length - 1) }), { maxLength: 4, selector: (one) => `${one.place} ${one.name}` })
  await fc.assert(
    fc.asyncProperty(seeded, fc.array(op, { minLength: 1, maxLength: 14 }), async (seeds, ops) => {
      const root = t.path(`work/r${round++}`)
      mkdirSync(join(root, '.git'), { recursive: true })
      for (const place of PLACES) mkdirSync(join(root, place, 'src'), { recursive: true })
      for (const one of seeds) writeSkill(root, one.place, one.name, 'seeded')
      const cwd = join(root, 'app')
      const fs = createLocalFileSystem({ writableRoots: [] })
      const session: SessionView = { header: { type: 'session', version: 1, id: 's', createdAt: '2026-12-01T00:00:00.000Z', cwd, delegationDepth: 0 }, events: [], surface: [], replaceGeneration: 0, eventBySeq: () => undefined }
      const host = { fs: () => fs, dshHome: t.path('home'), home: t.path('os-home'), maxSkillBytes: 65_536, additionalRoots: () => [], trust: () => ({}), warn: () => undefined }
      const skills = new SessionSkills(session, host, new Set())
      const joined = new Set<string>()
      const first = await skills.current()
      let before = { version: first?.version, items: itemsView(first?.items) }
      for (const step of ops) {
        if (step.kind === 'turn') skills.invalidate()
        else if (step.kind === 'touch') {
          const file = join(root, PLACES[step.place] ?? '', 'src', 'index.ts')
          writeFileSync(file, 'export {}\n')
          skills.observe(execution('read'), outcome([{ path: file, kind: 'read' }]))
          for (const dir of descendantDirs(root, cwd, file)) joined.add(dir.abs)
        } else {
          const folder = join(root, PLACES[step.place] ?? '', '.dsh', 'skills', naming(step.name, step.place))
          const file = join(folder, 'SKILL.md')
          // The write tool only writes; removing is the shell's.
          if (step.remove && step.kind === 'shell') rmSync(folder, { recursive: true, force: true })
          else writeSkill(root, step.place, step.name, step.text)
          if (step.kind === 'write') {
            skills.observe(execution('write'), outcome([{ path: file, kind: 'write' }]))
            for (const dir of descendantDirs(root, cwd, file)) joined.add(dir.abs)
          } else skills.observe(execution('bash'), outcome([]))
        }
        const incremental = await skills.current()
        const fresh = await discoverSkills({ fs, cwd, dshHome: t.path('home'), home: t.path('os-home'), nestedDirs: [...joined], maxSkillBytes: 65_536 })
        expect(view(incremental?.skills)).toEqual(view(fresh))
        // The plugin says nothing while the version stands: any change of the items must move it.
        const items = itemsView(incremental?.items)
        if (incremental?.version === before.version) expect(items).toEqual(before.items)
        // A version that only appended: the items before it, then the appended ones.
        if (incremental?.appended !== undefined && incremental.appended.from === before.version) {
          appends++
          expect(items).toEqual([...before.items, ...itemsView(incremental.appended.items)])
        }
        before = { version: incremental?.version, items }
      }
    }),
    { numRuns: 40, ...(seed === undefined ? {} : { seed }) },
  )
  return { appends }
}

describe('SessionSkills', () => {
  it('equals a fresh discovery of the joined directories after every step (names that clash)', async () => {
    await sessionProperty((name) => NAMES[name] ?? '')
  })

  it('equals a fresh discovery when joins only add skills, which extend the set in place', async () => {
    // A fixed seed: the count below is the same on every run.
    const { appends } = await sessionProperty((name, place) => `${NAMES[name] ?? ''}-${place}`, 24)
    // The in-place path was taken (and checked) many times over the runs.
    expect(appends).toBeGreaterThan(5)
  })
})
