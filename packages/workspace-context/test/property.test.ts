// Property test: random sequences of creations, edits, deletions, touches, compactions, resumes
// and probe failures. After every step: (a) no rendered message exceeds the budget, (b) the
// model-visible state of every examined scope equals the files on disk, (c) nothing unchanged
// and visible is injected again, (d) no removal is emitted for a scope whose probe failed.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { UserMessage } from '@dsh/contracts'
import { contentDigest } from '../src/digest.ts'
import { PLUGIN_NAME } from '../src/message.ts'
import { projectScope, userGlobalScope } from '../src/scope-key.ts'
import { deriveVisibleState, isLoaded } from '../src/visible-state.ts'
import { instructionMessages, sourceOf, textOf } from './support/fixtures.ts'
import { Rig, type RigAgent } from './support/rig.ts'

const DIRS = ['.', 'a', 'a/b', 'c'] as const
const BASE = ['AGENTS.md', 'CLAUDE.md'] as const
const LOCAL = 'AGENTS.local.md'
const HOME = '/home/user/.dsh'
const abs = (dir: string, name: string): string => (dir === '.' ? `/repo/${name}` : `/repo/${dir}/${name}`)
const rel = (dir: string, name: string): string => (dir === '.' ? name : `${dir}/${name}`)

type Command =
  | { kind: 'write'; dir: string; name: string; content: string }
  | { kind: 'delete'; dir: string; name: string }
  | { kind: 'writeGlobal'; content: string }
  | { kind: 'deleteGlobal' }
  | { kind: 'touch'; dir: string; failing?: { dir: string; name: string } }
  | { kind: 'prompt' }
  | { kind: 'compact' }
  | { kind: 'resume' }
  | { kind: 'wait' }

const content = fc.constantFrom('alpha', 'beta', 'gamma\n', 'x'.repeat(120), '</system-reminder> escape', '')
const dir = fc.constantFrom(...DIRS)
const name = fc.constantFrom(...BASE, LOCAL)
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('write' as const), dir, name, content }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), dir, name }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('writeGlobal' as const), content }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'deleteGlobal' as const }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('touch' as const), dir: fc.constantFrom('a', 'a/b', 'c') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('touch' as const), dir: fc.constantFrom('a', 'a/b', 'c'), failing: fc.record({ dir, name }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'prompt' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'compact' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'resume' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'wait' as const }) },
)

/** Expected digest (or undefined) of every scope, from the fake disk contents. */
function expectedState(disk: Map<string, string>): Map<string, { path: string; digest: string } | undefined> {
  const expected = new Map<string, { path: string; digest: string } | undefined>()
  const global = disk.get(`${HOME}/AGENTS.md`)
  expected.set(userGlobalScope().key, global === undefined ? undefined : { path: '~/.dsh/AGENTS.md', digest: contentDigest(global) })
  for (const d of DIRS) {
    const winner = BASE.find((n) => disk.has(abs(d, n)))
    expected.set(projectScope(d, 'base').key, winner === undefined ? undefined : { path: rel(d, winner), digest: contentDigest(disk.get(abs(d, winner)) ?? '') })
    const local = disk.get(abs(d, LOCAL))
    expected.set(projectScope(d, 'local').key, local === undefined ? undefined : { path: rel(d, LOCAL), digest: contentDigest(local) })
  }
  return expected
}

const scopesOfDir = (d: string): string[] => [projectScope(d, 'base').key, projectScope(d, 'local').key]
const ancestorsBelowRoot = (d: string): string[] => d.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))

async function run(commands: readonly Command[], maxBytes: number, checkState: boolean): Promise<void> {
  const rig = await new Rig({ files: { '/repo/.git/HEAD': 'x', '/repo/a/b/f.ts': '', '/repo/c/f.ts': '', '/repo/a/f.ts': '' }, config: { maxBytes } }).start()
  const disk = new Map<string, string>()
  let agent: RigAgent = rig.agent('/repo')
  let resumed = false
  await rig.step(agent, { prompt: 'start' })
  for (const cmd of commands) {
    rig.clock += 1
    if (cmd.kind === 'write') {
      rig.fs.write(abs(cmd.dir, cmd.name), cmd.content)
      disk.set(abs(cmd.dir, cmd.name), cmd.content)
      continue
    }
    if (cmd.kind === 'delete') {
      rig.fs.remove(abs(cmd.dir, cmd.name))
      disk.delete(abs(cmd.dir, cmd.name))
      continue
    }
    if (cmd.kind === 'writeGlobal') {
      rig.fs.write(`${HOME}/AGENTS.md`, cmd.content)
      disk.set(`${HOME}/AGENTS.md`, cmd.content)
      continue
    }
    if (cmd.kind === 'deleteGlobal') {
      rig.fs.remove(`${HOME}/AGENTS.md`)
      disk.delete(`${HOME}/AGENTS.md`)
      continue
    }
    if (cmd.kind === 'wait') {
      rig.clock += 10_000
      continue
    }
    if (cmd.kind === 'compact') {
      rig.compact(agent)
      continue
    }
    if (cmd.kind === 'resume') {
      agent = rig.agent('/repo', agent.session)
      resumed = true
      continue
    }
    const before = deriveVisibleState(agent.session, PLUGIN_NAME)
    const countBefore = instructionMessages(agent.session).length
    const failingPath = cmd.kind === 'touch' && cmd.failing !== undefined ? abs(cmd.failing.dir, cmd.failing.name) : undefined
    if (failingPath !== undefined) rig.fs.faults.failLstat.add(failingPath)
    if (failingPath !== undefined) rig.fs.faults.failStat.add(failingPath)
    const examined = new Set<string>([userGlobalScope().key, ...scopesOfDir('.')])
    if (cmd.kind === 'touch') {
      await rig.step(agent, { prompt: 'turn', tools: [{ touched: [`/repo/${cmd.dir}/f.ts`] }] })
      for (const d of ancestorsBelowRoot(cmd.dir)) for (const key of scopesOfDir(d)) examined.add(key)
      for (const [key, entry] of before.scopes) if (isLoaded(entry)) examined.add(key)
    } else {
      await rig.step(agent, { prompt: 'turn' })
      if (resumed) for (const [key, entry] of before.scopes) if (isLoaded(entry)) examined.add(key)
    }
    const examinedThisStep = cmd.kind === 'touch' || resumed
    resumed = false
    rig.fs.faults.failLstat.clear()
    rig.fs.faults.failStat.clear()
    const added: UserMessage[] = instructionMessages(agent.session).slice(countBefore)
    // (a) budget
    for (const m of added) expect(Buffer.byteLength(textOf(m))).toBeLessThanOrEqual(maxBytes)
    for (const m of added) {
      for (const change of sourceOf(m)?.changes ?? []) {
        const prior = before.scopes.get(change.scope)
        // (c) no re-injection of an unchanged, visible scope
        if (change.action !== 'remove' && sourceOf(m)?.baseline !== true) expect(isLoaded(prior) && prior.path === change.path && prior.digest === change.digest).toBe(false)
        // (d) no removal for a scope whose probe failed
        if (change.action === 'remove' && failingPath !== undefined && cmd.kind === 'touch' && cmd.failing !== undefined) {
          const failedScope = projectScope(cmd.failing.dir, cmd.failing.name === LOCAL ? 'local' : 'base').key
          expect(change.scope).not.toBe(failedScope)
        }
      }
    }
    // (b) visible state equals disk for every examined scope (no budget pressure, no failures)
    if (checkState && examinedThisStep && failingPath === undefined) {
      const after = deriveVisibleState(agent.session, PLUGIN_NAME)
      const expected = expectedState(disk)
      for (const key of examined) {
        const want = expected.get(key)
        const have = after.scopes.get(key)
        if (want === undefined) expect(isLoaded(have), `scope ${JSON.stringify(key)} should be unloaded`).toBe(false)
        else expect({ path: have?.path, digest: have?.digest, loaded: isLoaded(have) }, `scope ${JSON.stringify(key)}`).toEqual({ ...want, loaded: true })
      }
    }
  }
}

describe('property: instruction state follows the files', () => {

  it('with an ample budget, every examined scope matches the disk after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 40, size: 'max' }), (commands) => run(commands, 1_000_000, true)),
      { numRuns: 150 },
    )
  })

  it('under a tight budget, messages never exceed it and nothing is re-injected or wrongly removed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 40, size: 'max' }), fc.integer({ min: 1, max: 1200 }), (commands, maxBytes) => run(commands, maxBytes, false)),
      { numRuns: 150 },
    )
  })
})
