// Touches in a settled, unchanged workspace are proven quiet by one batch of version checks
// (settled and quiet records); every kind of change made after such touches is still the next
// touch's news: an edit, a new candidate that shadows a loaded file, a new file where there was
// none, a removal, and files reached through the step's record.
import { describe, expect, it } from 'vitest'
import type { FsCall } from './support/fake-fs.ts'
import { changesOf, instructionMessages, sourceOf } from './support/fixtures.ts'
import { Rig, type RigAgent } from './support/rig.ts'

const deep = (levels: number): string => Array.from({ length: levels }, (_, i) => `d${i + 1}`).join('/')
const TARGET = `/repo/${deep(6)}/file.ts`
const OTHER = `/repo/${deep(2)}/side/other.ts`
const EXAMINED_DIRS = 1 /* $DSH_HOME */ + 1 /* root */ + 6 /* d1..d6 */
const LOADED_FILES = 3

const files = (): Record<string, string> => ({
  '/repo/.git/HEAD': 'x',
  '/repo/AGENTS.md': 'Root.',
  '/home/user/.dsh/AGENTS.md': 'Global.',
  [`/repo/${deep(3)}/AGENTS.md`]: 'D3.',
  [TARGET]: 'f',
  [OTHER]: 'o',
})

const stats = (calls: readonly FsCall[]): FsCall[] => calls.filter((c) => c.method === 'stat')
const others = (calls: readonly FsCall[]): FsCall[] => calls.filter((c) => c.method !== 'stat')

/** One touch step, a settle window later; returns its fs calls. */
async function touch(rig: Rig, agent: RigAgent, path = TARGET): Promise<FsCall[]> {
  rig.clock += 1000
  const before = rig.fs.calls.length
  await rig.step(agent, { tools: [{ touched: [path] }] })
  return rig.fs.calls.slice(before)
}

/** A session whose touches of TARGET have become quiet (several settled touches, nothing changed). */
async function quiet(): Promise<{ rig: Rig; agent: RigAgent }> {
  const rig = await new Rig({ files: files(), timestamps: true }).start()
  rig.clock += 60_000
  const agent = rig.agent('/repo')
  await rig.step(agent, { prompt: 'p', tools: [{ touched: [TARGET] }] })
  for (let i = 0; i < 3; i++) {
    const calls = await touch(rig, agent)
    expect(others(calls)).toEqual([])
    expect(stats(calls)).toHaveLength(EXAMINED_DIRS + LOADED_FILES)
  }
  // The baseline, then the nested file the first touch found.
  expect(changesOf(instructionMessages(agent.session)).map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md', `${deep(3)}/AGENTS.md`])
  return { rig, agent }
}

const lastChanges = (agent: RigAgent) => changesOf(instructionMessages(agent.session).slice(-1))

describe('quiet touches', () => {
  it('an in-place edit of a loaded file is the next touch update', async () => {
    const { rig, agent } = await quiet()
    rig.fs.write(`/repo/${deep(3)}/AGENTS.md`, 'D3, second edition.')
    await touch(rig, agent)
    expect(lastChanges(agent)).toEqual([{ action: 'replace', path: `${deep(3)}/AGENTS.md` }])
    // Quiet again afterwards, at the same cost.
    expect(stats(await touch(rig, agent))).toHaveLength(EXAMINED_DIRS + LOADED_FILES)
    expect(instructionMessages(agent.session)).toHaveLength(3)
  })

  it('a new candidate that shadows a loaded file switches it at the next touch', async () => {
    const { rig, agent } = await quiet()
    rig.fs.write(`/repo/${deep(3)}/AGENTS.override.md`, 'D3 override.')
    await touch(rig, agent)
    expect(lastChanges(agent)).toEqual([{ action: 'replace', path: `${deep(3)}/AGENTS.override.md` }])
    expect(instructionMessages(agent.session).map((m) => sourceOf(m)?.changes[0]?.previousPath).at(-1)).toBe(`${deep(3)}/AGENTS.md`)
  })

  it('an instruction file in a directory that had none is delivered at the next touch', async () => {
    const { rig, agent } = await quiet()
    rig.fs.write(`/repo/${deep(5)}/CLAUDE.md`, 'D5.')
    await touch(rig, agent)
    expect(lastChanges(agent)).toEqual([{ action: 'set', path: `${deep(5)}/CLAUDE.md` }])
  })

  it('a removed file and a removed user-global file are removals at the next touch', async () => {
    const { rig, agent } = await quiet()
    rig.fs.remove(`/repo/${deep(3)}/AGENTS.md`)
    rig.fs.remove('/home/user/.dsh/AGENTS.md')
    await touch(rig, agent)
    expect(lastChanges(agent)).toEqual([
      { action: 'remove', path: '~/.dsh/AGENTS.md' },
      { action: 'remove', path: `${deep(3)}/AGENTS.md` },
    ])
  })

  it('a touch elsewhere examines its new directories, then is quiet too; a file appearing there is noticed', async () => {
    const { rig, agent } = await quiet()
    const first = await touch(rig, agent, OTHER)
    expect(others(first).filter((c) => c.method === 'lstat').map((c) => c.path)).toContain(`/repo/${deep(2)}/side/AGENTS.md`)
    expect(others(await touch(rig, agent, OTHER))).toEqual([])
    rig.fs.write(`/repo/${deep(2)}/side/AGENTS.md`, 'Side.')
    await touch(rig, agent, OTHER)
    expect(lastChanges(agent)).toEqual([{ action: 'set', path: `${deep(2)}/side/AGENTS.md` }])
    expect(instructionMessages(agent.session)).toHaveLength(3)
  })

  it('the second touch of a step takes its examinations from the step record, with no fs call', async () => {
    const { rig, agent } = await quiet()
    rig.clock += 1000
    const marks: number[] = []
    rig.ctx.on('tools/result', () => void marks.push(rig.fs.calls.length))
    const before = rig.fs.calls.length
    await rig.step(agent, { tools: [{ touched: [TARGET] }, { touched: [TARGET] }] })
    const [first = 0, second = 0] = marks
    expect(stats(rig.fs.calls.slice(before, first))).toHaveLength(EXAMINED_DIRS + LOADED_FILES)
    expect(rig.fs.calls.slice(first, second)).toEqual([])
  })
})
