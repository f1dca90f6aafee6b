// Link policy (D3), special files, bounded reads, non-UTF-8 content, failures and cancellation,
// on the in-memory filesystem (the real-disk hostile fixtures are in hostile-files.test.ts).
import { describe, expect, it } from 'vitest'
import { changesOf, instructionMessages, REPO, textOf } from './support/fixtures.ts'
import { Rig } from './support/rig.ts'

async function baselineOf(files: Record<string, string>, config = {}) {
  const rig = await new Rig({ files, config }).start()
  const agent = rig.agent('/repo')
  await rig.step(agent, { prompt: 'p' })
  const [baseline] = instructionMessages(agent.session)
  return { rig, agent, paths: baseline === undefined ? [] : changesOf([baseline]).map((c) => c.path), text: baseline === undefined ? '' : textOf(baseline) }
}

describe('symlinks', () => {
  it('follows a link to a file inside the project and loads the target content', async () => {
    const rig = await new Rig({ files: { '/repo/.git/x': '', '/repo/docs/canonical.md': 'Canonical.' } }).start()
    rig.fs.symlink('/repo/AGENTS.md', 'docs/canonical.md')
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    expect(textOf(instructionMessages(agent.session)[0]!)).toContain('Instructions from: AGENTS.md\n\nCanonical.')
  })

  it('refuses a link that escapes the trusted roots and reports it, without falling through', async () => {
    const rig = await new Rig({ files: { '/repo/.git/x': '', '/secret/key.txt': 'SECRET', '/repo/CLAUDE.md': 'claude' } }).start()
    rig.fs.symlink('/repo/AGENTS.md', '/secret/key.txt')
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    expect(instructionMessages(agent.session)).toHaveLength(0)
    expect(rig.fs.calls.filter((c) => c.method === 'streamText').map((c) => c.path)).not.toContain('/secret/key.txt')
  })

  it('allows links into $DSH_HOME and registered extra roots, and anywhere with follow-anywhere', async () => {
    const files = { '/repo/.git/x': '', '/home/user/.dsh/shared.md': 'Shared.', '/secret/key.txt': 'OUT' }
    const rig = await new Rig({ files }).start()
    rig.fs.symlink('/repo/AGENTS.md', '/home/user/.dsh/shared.md')
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    expect(textOf(instructionMessages(agent.session)[0]!)).toContain('Shared.')
    const open = await new Rig({ files, config: { instructionReadPolicy: 'follow-anywhere' } }).start()
    open.fs.symlink('/repo/AGENTS.md', '/secret/key.txt')
    const other = open.agent('/repo')
    await open.step(other, { prompt: 'p' })
    expect(textOf(instructionMessages(other.session)[0]!)).toContain('OUT')
  })

  it('refuses every link when followSymlinks is false', async () => {
    const rig = await new Rig({ files: { '/repo/.git/x': '', '/repo/real.md': 'Real.' }, config: { followSymlinks: false } }).start()
    rig.fs.symlink('/repo/AGENTS.md', 'real.md')
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    expect(instructionMessages(agent.session)).toHaveLength(0)
  })

  it('treats a dangling link and a link to a directory as absent, and notices a dangling link becoming valid', async () => {
    const rig = await new Rig({ files: { '/repo/.git/x': '', '/repo/pkg/a.ts': '', '/repo/dir/x': '' }, config: { versionSettleMs: 0 } }).start()
    rig.fs.symlink('/repo/pkg/AGENTS.md', '/repo/later.md')
    rig.fs.symlink('/repo/AGENTS.md', '/repo/dir')
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p', tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(instructionMessages(agent.session)).toHaveLength(0)
    rig.fs.write('/repo/later.md', 'Now valid.')
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(changesOf(instructionMessages(agent.session))).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
  })

  it('refuses a candidate reached through a parent directory link that leaves the project (no removal either)', async () => {
    const rig = await new Rig({ files: { ...REPO, '/outside/AGENTS.md': 'Outside.' } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p', tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    rig.fs.remove('/repo/pkg')
    rig.fs.symlink('/repo/pkg', '/outside')
    await rig.step(agent, { tools: [{ touched: ['/repo/x.ts'] }] })
    expect(instructionMessages(agent.session).map(textOf).join()).not.toContain('Outside.')
    expect(instructionMessages(agent.session)).toHaveLength(2)
  })

  it('loads one transition when the user-global file and the root candidate are the same file', async () => {
    const rig = await new Rig({ files: { '/repo/.git/x': '', '/repo/AGENTS.md': 'Both.' }, config: { dshHome: '/repo' } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    expect(changesOf(instructionMessages(agent.session))).toEqual([{ action: 'set', path: '$DSH_HOME/AGENTS.md' }])
  })
})

describe('special files, bounded reads and encodings', () => {
  it('never reads a FIFO, device or directory candidate and falls through to the next name', async () => {
    const rig = await new Rig({ files: { '/repo/.git/x': '', '/repo/CLAUDE.md': 'Claude.', '/repo/a/CLAUDE.md': 'A' } }).start()
    rig.fs.special('/repo/AGENTS.md')
    rig.fs.mkdirp('/repo/a/AGENTS.md')
    const agent = rig.agent('/repo/a')
    await rig.step(agent, { prompt: 'p' })
    expect(changesOf(instructionMessages(agent.session)).map((c) => c.path)).toEqual(['CLAUDE.md', 'a/CLAUDE.md'])
    expect(rig.fs.calls.filter((c) => c.method === 'streamText').map((c) => c.path)).toEqual(['/repo/CLAUDE.md', '/repo/a/CLAUDE.md'])
  })

  it('skips a file whose reported size exceeds maxSourceBytes without reading it', async () => {
    const { rig, paths } = await baselineOf({ ...REPO, '/repo/AGENTS.md': 'x'.repeat(200) }, { maxSourceBytes: 100 })
    expect(paths).toEqual(['~/.dsh/AGENTS.md'])
    expect(rig.fs.calls.filter((c) => c.method === 'streamText').map((c) => c.path)).not.toContain('/repo/AGENTS.md')
  })

  it('bounds a streamed read when the size is unknown or the file grows', async () => {
    const rig = await new Rig({ files: { '/repo/.git/x': '', '/repo/AGENTS.md': 'x'.repeat(50) }, config: { maxSourceBytes: 100 } }).start()
    rig.fs.faults.omitSizes = true
    rig.fs.faults.grow.set('/repo/AGENTS.md', 10_000_000)
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    expect(instructionMessages(agent.session)).toHaveLength(0)
  })

  it('accepts a file of exactly maxSourceBytes', async () => {
    const { paths } = await baselineOf({ '/repo/.git/x': '', '/repo/AGENTS.md': 'x'.repeat(100) }, { maxSourceBytes: 100 })
    expect(paths).toEqual(['AGENTS.md'])
  })

  it('reports but never injects UTF-16, invalid UTF-8 or NUL-bearing content', async () => {
    const rig = await new Rig({ files: { '/repo/.git/x': '', '/repo/a/AGENTS.md': 'ok', '/repo/AGENTS.md': 'x\u0000y' } }).start()
    rig.fs.write('/repo/a/AGENTS.md', new Uint8Array([0xff, 0xfe, 0x48, 0x00, 0x69, 0x00]))
    const agent = rig.agent('/repo/a')
    await rig.step(agent, { prompt: 'p' })
    await rig.step(agent, { tools: [{ touched: ['/repo/a/x.ts'] }] })
    expect(instructionMessages(agent.session)).toHaveLength(0)
    expect(rig.warnings).toEqual(['instruction file AGENTS.md contains NUL bytes; it is not loaded', 'instruction file a/AGENTS.md is not UTF-8 text; it is not loaded'])
  })

  it('skips a candidate whose probe fails while still loading its available siblings', async () => {
    const rig = await new Rig({ files: { ...REPO, '/repo/AGENTS.local.md': 'Local.' } }).start()
    rig.fs.faults.failLstat.add('/repo/AGENTS.md')
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    expect(changesOf(instructionMessages(agent.session)).map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.local.md'])
  })

  it('stops at the cwd when a root-marker probe fails instead of walking into an ancestor project', async () => {
    const rig = await new Rig({ files: { '/outer/.git/x': '', '/outer/AGENTS.md': 'Outer.', '/outer/inner/AGENTS.md': 'Inner.' } }).start()
    rig.fs.faults.failStat.add('/outer/inner/.git')
    const agent = rig.agent('/outer/inner')
    await rig.step(agent, { prompt: 'p' })
    expect(textOf(instructionMessages(agent.session)[0]!)).not.toContain('Outer.')
  })

  it('cancels an in-flight touch read with the tool signal and leaves the result untouched', async () => {
    const rig = await new Rig({ files: REPO }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    rig.fs.faults.hangRead.add('/repo/pkg/AGENTS.md')
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('stop')), 5)
    const entered = await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }], signal: controller.signal })
    expect(entered).toHaveLength(0)
  })
})
