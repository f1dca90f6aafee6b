// Property test: random sequences of creations, edits, deletions, touches, compactions (some
// keeping the latest messages visible), resumes, resumes under another baseline identity (a hot
// remount with another budget or another per-file cap that refuses the largest content, possibly
// while a probe fails), probe failures and steps with several tool calls where shell commands
// change files between reads, with and without provider timestamps. After every step: (a) no
// rendered message exceeds the budget, (b) the model-visible state of every examined scope equals
// the files on disk as of the last touch that examined it (a scope whose file the cap refuses is
// unloaded by a settings change and otherwise keeps whether it is loaded), (c) nothing unchanged
// and visible is injected again (a restored baseline included; only a superseding baseline
// repeats files by design), (d) no removal is emitted for a scope whose probe failed (a
// superseding baseline included), (e) a step under changed settings flags nothing as outdated,
// (f) a step after one in which a shell tool ran re-checks every loaded scope (D8): with no touch,
// each one matches the disk at that step (the oracle digests are its own SHA-256, not the plugin's).
import { createHash } from 'node:crypto'
import { dirname } from 'node:path'
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { UserMessage } from '@dsh/contracts'
import { PLUGIN_NAME } from '../src/message.ts'
import { decodeScope, projectScope, userGlobalScope } from '../src/scope-key.ts'
import { applyMessage, deriveVisibleState, isLoaded } from '../src/visible-state.ts'
import { instructionMessages, sourceOf, textOf } from './support/fixtures.ts'
import { Rig, type RigAgent, type ToolSpec } from './support/rig.ts'

const DIRS = ['.', 'a', 'a/b', 'c'] as const
const BASE = ['AGENTS.md', 'CLAUDE.md'] as const
const LOCAL = 'AGENTS.local.md'
const HOME = '/home/user/.dsh'
const abs = (dir: string, name: string): string => (dir === '.' ? `/repo/${name}` : `/repo/${dir}/${name}`)
const rel = (dir: string, name: string): string => (dir === '.' ? name : `${dir}/${name}`)

type FileOp = { kind: 'write'; dir: string; name: string; content: string } | { kind: 'delete'; dir: string; name: string } | { kind: 'rmdir'; dir: string }
type StepTool = { kind: 'read'; dir: string } | { kind: 'bash'; op: FileOp }

type Command =
  | FileOp
  | { kind: 'multi'; tools: StepTool[] }
  | { kind: 'writeGlobal'; content: string }
  | { kind: 'deleteGlobal' }
  | { kind: 'touch'; dir: string; failing?: { dir: string; name: string } }
  | { kind: 'prompt' }
  | { kind: 'compact'; keepLast: number }
  | { kind: 'resume' }
  | { kind: 'reconfigure'; sourceCap: boolean; failing?: { dir: string; name: string } }
  | { kind: 'wait' }

const content = fc.constantFrom('alpha', 'beta', 'gamma\n', 'x'.repeat(120), '</system-reminder> escape', '')
const dir = fc.constantFrom(...DIRS)
const name = fc.constantFrom(...BASE, LOCAL)
const touchDir = fc.constantFrom('a', 'a/b', 'c')
const fileOp: fc.Arbitrary<FileOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('write' as const), dir, name, content }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), dir, name }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rmdir' as const), dir: touchDir }) },
)
const stepTool: fc.Arbitrary<StepTool> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('read' as const), dir: touchDir }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('bash' as const), op: fileOp }) },
)
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('write' as const), dir, name, content }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), dir, name }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('multi' as const), tools: fc.array(stepTool, { minLength: 2, maxLength: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('writeGlobal' as const), content }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'deleteGlobal' as const }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('touch' as const), dir: fc.constantFrom('a', 'a/b', 'c') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('touch' as const), dir: fc.constantFrom('a', 'a/b', 'c'), failing: fc.record({ dir, name }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'prompt' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const), keepLast: fc.constantFrom(0, 0, 1, 2, 3) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'resume' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reconfigure' as const), sourceCap: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reconfigure' as const), sourceCap: fc.boolean(), failing: fc.record({ dir, name }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'wait' as const }) },
)

/** Per-file cap of the `sourceCap` settings: only the largest generated content (120 bytes) exceeds it. */
const SMALL_CAP = 100

/** The oracle's own content identity (SHA-256 hex of the exact text), independent of the plugin's digest code. */
const sha256 = (text: string): string => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex')

/** What a scope should hold: its file, nothing, or `refused` (its winner exceeds the per-file cap). */
type Expected = { path: string; digest: string } | undefined | 'refused'

/** Expected state of every scope, from the fake disk contents and the per-file cap. */
function expectedState(disk: Map<string, string>, cap: number): Map<string, Expected> {
  const expected = new Map<string, Expected>()
  const of = (path: string, display: string): Expected => {
    const text = disk.get(path)
    if (text === undefined) return undefined
    if (Buffer.byteLength(text) > cap) return 'refused'
    // A blank file has nothing to deliver: the model holds nothing from its scope.
    return text.trim() === '' ? undefined : { path: display, digest: sha256(text) }
  }
  expected.set(userGlobalScope().key, of(`${HOME}/AGENTS.md`, '~/.dsh/AGENTS.md'))
  for (const d of DIRS) {
    const winner = BASE.find((n) => disk.has(abs(d, n)))
    expected.set(projectScope(d, 'base').key, winner === undefined ? undefined : of(abs(d, winner), rel(d, winner)))
    expected.set(projectScope(d, 'local').key, of(abs(d, LOCAL), rel(d, LOCAL)))
  }
  return expected
}

const scopesOfDir = (d: string): string[] => [projectScope(d, 'base').key, projectScope(d, 'local').key]
const ancestorsBelowRoot = (d: string): string[] => d.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))

function applyOp(rig: Rig, disk: Map<string, string>, op: FileOp): void {
  if (op.kind === 'write') {
    rig.fs.write(abs(op.dir, op.name), op.content)
    disk.set(abs(op.dir, op.name), op.content)
  } else if (op.kind === 'delete') {
    rig.fs.remove(abs(op.dir, op.name))
    disk.delete(abs(op.dir, op.name))
  } else {
    rig.fs.remove(`/repo/${op.dir}`)
    for (const key of disk.keys()) if (key.startsWith(`/repo/${op.dir}/`)) disk.delete(key)
  }
}

/**
 * Oracle of a step with several tools: each read touch examines the user-global scope, the root,
 * the directories down to its file and the directories of the scopes loaded so far, and leaves
 * them as the disk was when it ran (a scope whose file the cap refuses stays loaded, content
 * unknown, or unloaded, as it was). Returns every scope examined and its expected final state.
 */
function expectedAfterReads(before: ReturnType<typeof deriveVisibleState>, reads: readonly { dir: string; disk: Map<string, string>; recheck?: boolean }[], cap: number) {
  const model = new Map<string, { path: string; digest: string } | undefined | 'loaded'>()
  for (const [key, entry] of before.scopes) if (isLoaded(entry)) model.set(key, { path: entry.path, digest: entry.digest ?? '' })
  const examined = new Set<string>()
  for (const read of reads) {
    // A re-check after a shell step (D8) examines only the loaded scopes' directories (and the user-global file when loaded).
    const keys = new Set(read.recheck === true ? (model.get(userGlobalScope().key) === undefined ? [] : [userGlobalScope().key]) : [userGlobalScope().key, ...scopesOfDir('.'), ...ancestorsBelowRoot(read.dir).flatMap(scopesOfDir)])
    for (const [key, entry] of model) {
      const scope = decodeScope(key)
      if (entry !== undefined && scope?.kind === 'project') for (const k of scopesOfDir(scope.dir)) keys.add(k)
    }
    const want = expectedState(read.disk, cap)
    for (const key of keys) {
      const next = want.get(key)
      model.set(key, next !== 'refused' ? next : model.get(key) === undefined ? undefined : 'loaded')
      examined.add(key)
    }
  }
  return { model, examined }
}

async function run(commands: readonly Command[], maxBytes: number, checkState: boolean, timestamps: boolean): Promise<void> {
  const rig = await new Rig({ files: { '/repo/.git/HEAD': 'x', '/repo/a/b/f.ts': '', '/repo/c/f.ts': '', '/repo/a/f.ts': '' }, config: { maxBytes }, timestamps }).start()
  const disk = new Map<string, string>()
  let agent: RigAgent = rig.agent('/repo')
  let resumed = false
  // A step with a shell tool ran since the last step: the next entering pre-step re-checks loaded scopes (D8).
  let shellPending = false
  let budget = maxBytes
  let cap = Number.POSITIVE_INFINITY
  await rig.step(agent, { prompt: 'start' })
  for (const cmd of commands) {
    rig.clock += 1
    if (cmd.kind === 'write' || cmd.kind === 'delete' || cmd.kind === 'rmdir') {
      applyOp(rig, disk, cmd)
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
      rig.compact(agent, cmd.keepLast)
      continue
    }
    if (cmd.kind === 'reconfigure') {
      // Another baseline identity: the next step supersedes the visible baseline.
      if (cmd.sourceCap) cap = cap === SMALL_CAP ? Number.POSITIVE_INFINITY : SMALL_CAP
      else budget = budget === maxBytes ? maxBytes + 1 : maxBytes
      await rig.remount({ maxBytes: budget, maxSourceBytes: cap === SMALL_CAP ? SMALL_CAP : undefined })
      agent = rig.agent('/repo', agent.session)
      resumed = true
    }
    if (cmd.kind === 'resume') {
      agent = rig.agent('/repo', agent.session)
      resumed = true
      continue
    }
    const before = deriveVisibleState(agent.session, PLUGIN_NAME)
    const countBefore = instructionMessages(agent.session).length
    const failing = cmd.kind === 'touch' || cmd.kind === 'reconfigure' ? cmd.failing : undefined
    const failingPath = failing === undefined ? undefined : abs(failing.dir, failing.name)
    // A failing probe inside a directory that is gone is never reached: the directory's own stat confirms the absence.
    const failingReachable = failingPath === undefined || (await rig.fs.stat(dirname(failingPath)))?.type === 'directory'
    if (failingPath !== undefined) rig.fs.faults.failLstat.add(failingPath)
    if (failingPath !== undefined) rig.fs.faults.failStat.add(failingPath)
    const examined = new Set<string>([userGlobalScope().key, ...scopesOfDir('.')])
    let oracle: ReturnType<typeof expectedAfterReads> | undefined
    if (cmd.kind === 'multi') {
      // A resumed instance examines the root and the loaded scopes in its first pre-step, before any
      // tool; after a shell step, the pre-step re-checks the loaded scopes.
      const reads: { dir: string; disk: Map<string, string>; recheck?: boolean }[] = resumed ? [{ dir: '.', disk: new Map(disk) }] : shellPending ? [{ dir: '.', disk: new Map(disk), recheck: true }] : []
      const tools: ToolSpec[] = cmd.tools.map((tool) =>
        tool.kind === 'read' ? { touched: [`/repo/${tool.dir}/f.ts`], effect: () => void reads.push({ dir: tool.dir, disk: new Map(disk) }) } : { name: 'bash', effect: () => applyOp(rig, disk, tool.op) },
      )
      await rig.step(agent, { prompt: 'turn', tools })
      oracle = expectedAfterReads(before, reads, cap)
    } else if (cmd.kind === 'touch') {
      await rig.step(agent, { prompt: 'turn', tools: [{ touched: [`/repo/${cmd.dir}/f.ts`] }] })
      for (const d of ancestorsBelowRoot(cmd.dir)) for (const key of scopesOfDir(d)) examined.add(key)
      for (const [key, entry] of before.scopes) if (isLoaded(entry)) examined.add(key)
    } else {
      await rig.step(agent, { prompt: 'turn' })
      if (resumed) {
        for (const [key, entry] of before.scopes) if (isLoaded(entry)) examined.add(key)
      } else if (shellPending) {
        // The re-check examines the directories of the loaded scopes only (and the user-global file when loaded).
        examined.clear()
        for (const [key, entry] of before.scopes) {
          const scope = isLoaded(entry) ? decodeScope(key) : undefined
          if (scope?.kind === 'user-global') examined.add(key)
          if (scope?.kind === 'project') for (const k of scopesOfDir(scope.dir)) examined.add(k)
        }
      }
    }
    // (f) after a shell step, a plain step re-checks every loaded scope (D8): examined like a touch would.
    const examinedThisStep = cmd.kind === 'touch' || ((resumed || shellPending) && cmd.kind !== 'multi')
    resumed = false
    shellPending = cmd.kind === 'multi' && cmd.tools.some((tool) => tool.kind === 'bash')
    rig.fs.faults.failLstat.clear()
    rig.fs.faults.failStat.clear()
    const added: UserMessage[] = instructionMessages(agent.session).slice(countBefore)
    // (a) budget
    for (const m of added) expect(Buffer.byteLength(textOf(m))).toBeLessThanOrEqual(budget)
    const running = { scopes: new Map(before.scopes) }
    for (const m of added) {
      const superseding = sourceOf(m)?.baseline === true && before.baseline !== undefined && before.baseline.identity !== sourceOf(m)?.baselineIdentity
      for (const change of sourceOf(m)?.changes ?? []) {
        const prior = running.scopes.get(change.scope)
        // (c) no re-injection of an unchanged, visible scope (a superseding baseline restates everything)
        if (change.action !== 'remove' && !superseding) expect(isLoaded(prior) && prior.path === change.path && prior.digest === change.digest, `re-injected ${JSON.stringify(change)}`).toBe(false)
        // (d) no removal for a scope whose probe failed (when it is probed: no earlier candidate of its slot exists).
        // Only a file that exists is protected: the failing stat of a missing one hides nothing, since
        // the directory listing already shows it absent (an empty next candidate is then a removal).
        const failingIndex = BASE.findIndex((n) => n === failing?.name)
        const shadowedFailing = failing !== undefined && failingIndex > 0 && BASE.slice(0, failingIndex).some((n) => disk.has(abs(failing.dir, n)))
        const failingExists = failingPath !== undefined && disk.has(failingPath)
        if (change.action === 'remove' && failingPath !== undefined && failingExists && failingReachable && failing !== undefined && !shadowedFailing) {
          expect(change.scope).not.toBe(projectScope(failing.dir, failing.name === LOCAL ? 'local' : 'base').key)
        }
        // (e) the settings changed, not the files: nothing is flagged as outdated
        if (cmd.kind === 'reconfigure') expect(change.unloadable, `outdated under changed settings ${JSON.stringify(change)}`).toBeUndefined()
      }
      applyMessage(running, m, PLUGIN_NAME)
    }
    if (checkState && oracle !== undefined) {
      const after = deriveVisibleState(agent.session, PLUGIN_NAME)
      for (const key of oracle.examined) {
        const want = oracle.model.get(key)
        const have = after.scopes.get(key)
        if (want === undefined) expect(isLoaded(have), `scope ${JSON.stringify(key)} should be unloaded`).toBe(false)
        else if (want === 'loaded') expect(isLoaded(have), `scope ${JSON.stringify(key)} should stay loaded`).toBe(true)
        else expect({ path: have?.path, digest: have?.digest, loaded: isLoaded(have) }, `scope ${JSON.stringify(key)}`).toEqual({ ...want, loaded: true })
      }
    }
    // (b) visible state equals disk for every examined scope (no budget pressure, no failures)
    if (checkState && examinedThisStep && failingPath === undefined) {
      const after = deriveVisibleState(agent.session, PLUGIN_NAME)
      const expected = expectedState(disk, cap)
      for (const key of examined) {
        const want = expected.get(key)
        const have = after.scopes.get(key)
        // A refused file: removed when the settings changed; otherwise the scope keeps whether it is loaded.
        if (want === 'refused') expect(isLoaded(have), `refused scope ${JSON.stringify(key)}`).toBe(cmd.kind === 'reconfigure' ? false : isLoaded(before.scopes.get(key)))
        else if (want === undefined) expect(isLoaded(have), `scope ${JSON.stringify(key)} should be unloaded`).toBe(false)
        else expect({ path: have?.path, digest: have?.digest, loaded: isLoaded(have) }, `scope ${JSON.stringify(key)}`).toEqual({ ...want, loaded: true })
      }
    }
  }
}

describe('property: instruction state follows the files', () => {

  it('with an ample budget, every examined scope matches the disk after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 40, size: 'max' }), fc.boolean(), (commands, timestamps) => run(commands, 1_000_000, true, timestamps)),
      { numRuns: 150 },
    )
  })

  it('under a tight budget, messages never exceed it and nothing is re-injected or wrongly removed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 40, size: 'max' }), fc.integer({ min: 1, max: 1200 }), fc.boolean(), (commands, maxBytes, timestamps) => run(commands, maxBytes, false, timestamps)),
      { numRuns: 150 },
    )
  })
})
