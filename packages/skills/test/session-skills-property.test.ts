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

describe('SessionSkills', () => {
  it('equals a fresh discovery of the joined directories after every step', async () => {
    tree = await tempTree({ 'work/.git/': null, 'home/': null, 'os-home/': null })
    const t = tree
    let round = 0
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const root = t.path(`work/r${round++}`)
        mkdirSync(join(root, '.git'), { recursive: true })
        for (const place of PLACES) mkdirSync(join(root, place, 'src'), { recursive: true })
        const cwd = join(root, 'app')
        const fs = createLocalFileSystem({ writableRoots: [] })
        const session: SessionView = { header: { type: 'session', version: 1, id: 's', createdAt: '2026-12-01T00:00:00.000Z', cwd, delegationDepth: 0 }, events: [], surface: [], replaceGeneration: 0, eventBySeq: () => undefined }
        const host = { fs: () => fs, dshHome: t.path('home'), home: t.path('os-home'), maxSkillBytes: 65_536, additionalRoots: () => [], trust: () => ({}), warn: () => undefined }
        const skills = new SessionSkills(session, host, new Set())
        const joined = new Set<string>()
        await skills.current()
        for (const step of ops) {
          if (step.kind === 'turn') skills.invalidate()
          else if (step.kind === 'touch') {
            const file = join(root, PLACES[step.place] ?? '', 'src', 'index.ts')
            writeFileSync(file, 'export {}\n')
            skills.observe(execution('read'), outcome([{ path: file, kind: 'read' }]))
            for (const dir of descendantDirs(root, cwd, file)) joined.add(dir.abs)
          } else {
            const folder = join(root, PLACES[step.place] ?? '', '.dsh', 'skills', NAMES[step.name] ?? '')
            const file = join(folder, 'SKILL.md')
            // The write tool only writes; removing is the shell's.
            if (step.remove && step.kind === 'shell') rmSync(folder, { recursive: true, force: true })
            else {
              mkdirSync(folder, { recursive: true })
              writeFileSync(file, `---\nname: ${NAMES[step.name] ?? ''}\ndescription: ${step.text} at ${step.place}\n---\nBody ${step.text}.\n`)
            }
            if (step.kind === 'write') {
              skills.observe(execution('write'), outcome([{ path: file, kind: 'write' }]))
              for (const dir of descendantDirs(root, cwd, file)) joined.add(dir.abs)
            } else skills.observe(execution('bash'), outcome([]))
          }
          const incremental = await skills.current()
          const fresh = await discoverSkills({ fs, cwd, dshHome: t.path('home'), home: t.path('os-home'), nestedDirs: [...joined], maxSkillBytes: 65_536 })
          expect(view(incremental?.skills)).toEqual(view(fresh))
        }
      }),
      { numRuns: 40 },
    )
  })
})
