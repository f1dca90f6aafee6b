// Deterministic fs-call budgets (gated in CI instead of wall time): a touch in an unchanged deep
// tree costs at most one stat per examined directory plus one per loaded file, and no reads; with
// provider timestamps that holds from the first revisit on; touches in one step share one
// examination of each directory unless something in the step may have changed the files.
import { describe, expect, it } from 'vitest'
import type { FsCall } from './support/fake-fs.ts'
import { changesOf, instructionMessages } from './support/fixtures.ts'
import { Rig, type RigAgent } from './support/rig.ts'

const deep = (levels: number): string => Array.from({ length: levels }, (_, i) => `d${i + 1}`).join('/')
const TARGET = `/repo/${deep(8)}/file.ts`
const EXAMINED_DIRS = 1 /* $DSH_HOME */ + 1 /* root */ + 8 /* d1..d8: below the cwd down to the file's directory */
const LOADED_FILES = 3

function tree(): Record<string, string> {
  const files: Record<string, string> = { '/repo/.git/HEAD': 'x', '/repo/AGENTS.md': 'Root.', '/home/user/.dsh/AGENTS.md': 'Global.', [`/repo/${deep(3)}/AGENTS.md`]: 'D3.', [TARGET]: 'f', [`/repo/${deep(8)}/d9/g.ts`]: 'g' }
  for (let i = 0; i < 40; i++) files[`/repo/wide${i}/x/y.ts`] = 'y'
  return files
}

const method = (calls: readonly FsCall[], name: FsCall['method']): FsCall[] => calls.filter((c) => c.method === name)

/** Runs one step and returns the fs calls it made. */
async function measured(rig: Rig, agent: RigAgent, touched: readonly string[] = [TARGET]): Promise<FsCall[]> {
  const before = rig.fs.calls.length
  await rig.step(agent, { tools: [{ touched }] })
  return rig.fs.calls.slice(before)
}

function expectSettled(calls: readonly FsCall[]): void {
  expect(method(calls, 'streamText')).toEqual([])
  expect([...method(calls, 'lstat'), ...method(calls, 'resolve')]).toEqual([])
  expect(method(calls, 'stat')).toHaveLength(EXAMINED_DIRS + LOADED_FILES)
}

/** A rig whose files were written long before the session (provider timestamps on). */
async function oldTree(): Promise<{ rig: Rig; agent: RigAgent }> {
  const rig = await new Rig({ files: tree(), timestamps: true }).start()
  rig.clock += 60_000
  const agent = rig.agent('/repo')
  await rig.step(agent, { prompt: 'p', tools: [{ touched: [TARGET] }] })
  expect(changesOf(instructionMessages(agent.session)).map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md', `${deep(3)}/AGENTS.md`])
  rig.clock += 1000
  return { rig, agent }
}

describe('fs-call counts', () => {
  it('with provider timestamps, the first revisit already costs one stat per examined directory plus one per loaded file', async () => {
    const { rig, agent } = await oldTree()
    expectSettled(await measured(rig, agent))
    rig.clock += 1000
    expectSettled(await measured(rig, agent))
    expect(instructionMessages(agent.session)).toHaveLength(2)
  })

  it('without provider timestamps, versions settle once re-confirmed after the settle window', async () => {
    const rig = await new Rig({ files: tree() }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p', tools: [{ touched: [TARGET] }] })
    rig.clock += 1000
    // The re-confirmation probes and reads everything once more...
    expect(method(await measured(rig, agent), 'streamText')).toHaveLength(LOADED_FILES)
    rig.clock += 1000
    // ...and from then on the settled cost applies.
    expectSettled(await measured(rig, agent))
    expect(instructionMessages(agent.session)).toHaveLength(2)
  })

  it('re-reads files and re-probes directories whose timestamps are within the settle window or ahead of the clock', async () => {
    const { rig, agent } = await oldTree()
    rig.fs.write(`/repo/${deep(6)}/AGENTS.md`, 'D6.')
    // Written by a machine whose clock is an hour ahead.
    rig.fs.write('/repo/AGENTS.md', 'Root v2.')
    rig.fs.setChangedAt('/repo/AGENTS.md', rig.clock + 3_600_000)
    await rig.step(agent, { tools: [{ touched: [TARGET] }] })
    expect(changesOf(instructionMessages(agent.session).slice(-1))).toEqual([
      { action: 'replace', path: 'AGENTS.md' },
      { action: 'set', path: `${deep(6)}/AGENTS.md` },
    ])
    rig.clock += 5
    const fresh = await measured(rig, agent)
    expect(method(fresh, 'streamText').map((c) => c.path)).toEqual(['/repo/AGENTS.md', `/repo/${deep(6)}/AGENTS.md`])
    expect(method(fresh, 'lstat').filter((c) => c.path.startsWith(`/repo/${deep(6)}/`)).length).toBeGreaterThan(0)
    rig.clock += 1000
    // This observation starts a settle window after d6's change, so it is trusted from here on;
    // the root file stays untrusted while its timestamp is ahead of the clock.
    expect(method(await measured(rig, agent), 'streamText').map((c) => c.path)).toEqual(['/repo/AGENTS.md', `/repo/${deep(6)}/AGENTS.md`])
    rig.clock += 1000
    expect(method(await measured(rig, agent), 'streamText').map((c) => c.path)).toEqual(['/repo/AGENTS.md'])
    rig.clock += 3_600_000
    await measured(rig, agent)
    rig.clock += 1000
    expect(method(await measured(rig, agent), 'streamText')).toEqual([])
    expect(instructionMessages(agent.session)).toHaveLength(3)
  })

  it('two reads in one step: the second costs fs calls only for directories the first did not examine', async () => {
    const { rig, agent } = await oldTree()
    const marks: number[] = []
    rig.ctx.on('tools/result', () => void marks.push(rig.fs.calls.length))
    const before = rig.fs.calls.length
    await rig.step(agent, { tools: [{ touched: [TARGET] }, { touched: [`/repo/${deep(8)}/d9/g.ts`] }, { name: 'grep' }, { touched: [TARGET] }] })
    const [first = 0, second = 0, grep = 0, third = 0] = marks
    expectSettled(rig.fs.calls.slice(before, first))
    const d9 = `/repo/${deep(8)}/d9`
    const secondCalls = rig.fs.calls.slice(first, second)
    expect(secondCalls.every((c) => c.path === d9 || c.path.startsWith(`${d9}/`))).toBe(true)
    expect(method(secondCalls, 'stat').map((c) => c.path)).toEqual([d9])
    // A read-only tool in between keeps the record; the same read again costs nothing.
    expect(rig.fs.calls.slice(second, third)).toEqual([])
    expect(grep).toBe(second)
    // The next step examines afresh (one stat per directory and loaded file).
    rig.clock += 1000
    expectSettled(await measured(rig, agent))
  })

  it('a shell command between two reads of a step forces a re-examination', async () => {
    const { rig, agent } = await oldTree()
    const d5 = `/repo/${deep(5)}/AGENTS.md`
    await rig.step(agent, { tools: [{ touched: [TARGET] }, { name: 'bash', effect: () => rig.fs.write(d5, 'D5.') }, { touched: [TARGET] }] })
    expect(changesOf(instructionMessages(agent.session).slice(-1))).toEqual([{ action: 'set', path: `${deep(5)}/AGENTS.md` }])
    // A write's own pass examines afresh (and its result drops the record for later reads).
    const d7 = `/repo/${deep(7)}/AGENTS.md`
    await rig.step(agent, { tools: [{ touched: [TARGET] }, { name: 'write', touchKind: 'write', touched: [d7], effect: () => rig.fs.write(d7, 'D7.') }, { touched: [TARGET] }] })
    expect(changesOf(instructionMessages(agent.session).slice(-1))).toEqual([{ action: 'set', path: `${deep(7)}/AGENTS.md` }])
    // Code Mode's nested reads never share: the snippet may change files between them.
    const d2 = `/repo/${deep(2)}/AGENTS.md`
    await rig.step(agent, { tools: [{ touched: [TARGET] }, { name: 'run_code', nested: [{ touched: [TARGET] }, { touched: [TARGET], effect: () => rig.fs.write(d2, 'D2.') }] }] })
    expect(changesOf(instructionMessages(agent.session).slice(-1))).toEqual([{ action: 'set', path: `${deep(2)}/AGENTS.md` }])
  })

  it('still notices a new file in an examined directory and an in-place edit of a loaded file', async () => {
    const rig = await new Rig({ files: tree() }).start()
    const agent = rig.agent('/repo')
    for (let i = 0; i < 3; i++) {
      await rig.step(agent, i === 0 ? { prompt: 'p', tools: [{ touched: [TARGET] }] } : { tools: [{ touched: [TARGET] }] })
      rig.clock += 1000
    }
    rig.fs.write(`/repo/${deep(6)}/AGENTS.md`, 'D6.')
    rig.fs.write('/repo/AGENTS.md', 'Root v2.')
    await rig.step(agent, { tools: [{ touched: [TARGET] }] })
    expect(changesOf(instructionMessages(agent.session).slice(-1))).toEqual([
      { action: 'replace', path: 'AGENTS.md' },
      { action: 'set', path: `${deep(6)}/AGENTS.md` },
    ])
  })

  it('re-reads a same-version rewrite that happened before the version settled (racy timestamps)', async () => {
    for (const timestamps of [false, true]) {
      const rig = await new Rig({ files: tree(), timestamps }).start()
      const agent = rig.agent('/repo')
      await rig.step(agent, { prompt: 'p' })
      rig.clock += 5
      rig.fs.write('/repo/AGENTS.md', 'Roo2.', true)
      await rig.step(agent, { tools: [{ touched: ['/repo/x.ts'] }] })
      expect(changesOf(instructionMessages(agent.session).slice(-1))).toEqual([{ action: 'replace', path: 'AGENTS.md' }])
    }
  })

  it('probes every candidate each time when directory versions are disabled', async () => {
    const rig = await new Rig({ files: tree(), config: { directoryVersions: false } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    for (let i = 0; i < 3; i++) {
      rig.clock += 1000
      await rig.step(agent, { tools: [{ touched: ['/repo/x.ts'] }] })
    }
    const calls = await measured(rig, agent, ['/repo/x.ts'])
    expect(method(calls, 'lstat').length).toBeGreaterThan(0)
    expect(method(calls, 'streamText')).toEqual([])
  })
})
