// Deterministic fs-call budgets (gated in CI instead of wall time): a touch in an unchanged deep
// tree costs at most one stat per examined directory plus one per loaded file, and no reads.
import { describe, expect, it } from 'vitest'
import { changesOf, instructionMessages } from './support/fixtures.ts'
import { Rig } from './support/rig.ts'

const deep = (levels: number): string => Array.from({ length: levels }, (_, i) => `d${i + 1}`).join('/')

function tree(): Record<string, string> {
  const files: Record<string, string> = { '/repo/.git/HEAD': 'x', '/repo/AGENTS.md': 'Root.', '/home/user/.dsh/AGENTS.md': 'Global.', [`/repo/${deep(3)}/AGENTS.md`]: 'D3.', [`/repo/${deep(8)}/file.ts`]: 'f' }
  for (let i = 0; i < 40; i++) files[`/repo/wide${i}/x/y.ts`] = 'y'
  return files
}

describe('fs-call counts', () => {
  it('a touch in an unchanged deep tree costs one stat per examined directory plus one per loaded file', async () => {
    const rig = await new Rig({ files: tree() }).start()
    const agent = rig.agent('/repo')
    const target = `/repo/${deep(8)}/file.ts`
    await rig.step(agent, { prompt: 'p', tools: [{ touched: [target] }] })
    expect(changesOf(instructionMessages(agent.session)).map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md', `${deep(3)}/AGENTS.md`])
    // Warm-up: versions settle once they were re-confirmed after the settle window.
    rig.clock += 1000
    await rig.step(agent, { tools: [{ touched: [target] }] })
    rig.clock += 1000
    await rig.step(agent, { tools: [{ touched: [target] }] })

    const before = rig.fs.calls.length
    rig.clock += 1000
    await rig.step(agent, { tools: [{ touched: [target] }] })
    const calls = rig.fs.calls.slice(before)
    const examinedDirs = 1 /* $DSH_HOME */ + 1 /* root */ + 8 /* d1..d8: below the cwd down to the file's directory */
    const loadedFiles = 3
    expect(calls.filter((c) => c.method === 'streamText')).toEqual([])
    expect(calls.filter((c) => c.method === 'lstat' || c.method === 'resolve')).toEqual([])
    expect(calls.filter((c) => c.method === 'stat').length).toBe(examinedDirs + loadedFiles)
    expect(instructionMessages(agent.session)).toHaveLength(2)
  })

  it('still notices a new file in an examined directory and an in-place edit of a loaded file', async () => {
    const rig = await new Rig({ files: tree() }).start()
    const agent = rig.agent('/repo')
    const target = `/repo/${deep(8)}/file.ts`
    for (let i = 0; i < 3; i++) {
      await rig.step(agent, i === 0 ? { prompt: 'p', tools: [{ touched: [target] }] } : { tools: [{ touched: [target] }] })
      rig.clock += 1000
    }
    rig.fs.write(`/repo/${deep(6)}/AGENTS.md`, 'D6.')
    rig.fs.write('/repo/AGENTS.md', 'Root v2.')
    await rig.step(agent, { tools: [{ touched: [target] }] })
    expect(changesOf(instructionMessages(agent.session).slice(-1))).toEqual([
      { action: 'replace', path: 'AGENTS.md' },
      { action: 'set', path: `${deep(6)}/AGENTS.md` },
    ])
  })

  it('re-reads a same-version rewrite that happened before the version settled (racy timestamps)', async () => {
    const rig = await new Rig({ files: tree() }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    rig.fs.write('/repo/AGENTS.md', 'Roo2.', true)
    await rig.step(agent, { tools: [{ touched: ['/repo/x.ts'] }] })
    expect(changesOf(instructionMessages(agent.session).slice(-1))).toEqual([{ action: 'replace', path: 'AGENTS.md' }])
  })

  it('probes every candidate each time when directory versions are disabled', async () => {
    const rig = await new Rig({ files: tree(), config: { directoryVersions: false } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    for (let i = 0; i < 3; i++) {
      rig.clock += 1000
      await rig.step(agent, { tools: [{ touched: ['/repo/x.ts'] }] })
    }
    const before = rig.fs.calls.length
    await rig.step(agent, { tools: [{ touched: ['/repo/x.ts'] }] })
    expect(rig.fs.calls.slice(before).filter((c) => c.method === 'lstat').length).toBeGreaterThan(0)
    expect(rig.fs.calls.slice(before).filter((c) => c.method === 'streamText')).toEqual([])
  })
})
