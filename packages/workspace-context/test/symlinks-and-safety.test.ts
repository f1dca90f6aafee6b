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

  it('allows a link to the user-global file, and anywhere with follow-anywhere', async () => {
    const files = { '/repo/.git/x': '', '/home/user/.dsh/AGENTS.md': 'Shared.', '/secret/key.txt': 'OUT' }
    const rig = await new Rig({ files }).start()
    rig.fs.symlink('/repo/AGENTS.md', '/home/user/.dsh/AGENTS.md')
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    expect(changesOf(instructionMessages(agent.session))).toEqual([
      { action: 'set', path: '~/.dsh/AGENTS.md' },
      { action: 'set', path: 'AGENTS.md' },
    ])
    const open = await new Rig({ files, config: { instructionReadPolicy: 'follow-anywhere' } }).start()
    open.fs.symlink('/repo/AGENTS.md', '/secret/key.txt')
    const other = open.agent('/repo')
    await open.step(other, { prompt: 'p' })
    expect(textOf(instructionMessages(other.session)[0]!)).toContain('OUT')
  })

  it('trusts only the user-global file of $DSH_HOME: links to its sessions or settings are escaping', async () => {
    const files = { '/repo/.git/x': '', '/repo/pkg/a.ts': '', '/home/user/.dsh/sessions/s1.jsonl': '{"secret":1}', '/home/user/.dsh/settings.yaml': 'apiKey: sk-SECRET' }
    const rig = await new Rig({ files }).start()
    rig.fs.symlink('/repo/AGENTS.md', '/home/user/.dsh/settings.yaml')
    rig.fs.symlink('/repo/pkg/AGENTS.md', '../../home/user/.dsh/sessions/s1.jsonl')
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p', tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(instructionMessages(agent.session)).toHaveLength(0)
    expect(rig.fs.calls.filter((c) => c.method === 'streamText')).toEqual([])
    expect(rig.warnings).toEqual(['instruction file AGENTS.md links outside the trusted roots; it is not loaded', 'instruction file pkg/AGENTS.md links outside the trusted roots; it is not loaded'])
  })

  it('follows the user-global file own link anywhere (a dotfiles checkout), while a project link into that checkout escapes', async () => {
    const files = { '/repo/.git/x': '', '/home/user/dotfiles/agents.md': 'My personal rules.\n', '/home/user/dotfiles/other.md': 'Other.\n' }
    const rig = await new Rig({ files }).start()
    rig.fs.symlink('/home/user/.dsh/AGENTS.md', '../dotfiles/agents.md')
    rig.fs.symlink('/repo/AGENTS.md', '/home/user/dotfiles/other.md')
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    expect(changesOf(instructionMessages(agent.session))).toEqual([{ action: 'set', path: '~/.dsh/AGENTS.md' }])
    expect(textOf(instructionMessages(agent.session)[0]!)).toContain('My personal rules.')
    expect(rig.warnings).toEqual(['instruction file AGENTS.md links outside the trusted roots; it is not loaded'])
    // Retargeted mid-session to another file of the checkout: still the user's own file, still followed.
    rig.fs.write('/home/user/dotfiles/work.md', 'My work rules.\n')
    rig.fs.remove('/home/user/.dsh/AGENTS.md')
    rig.fs.symlink('/home/user/.dsh/AGENTS.md', '../dotfiles/work.md')
    await rig.step(agent, { tools: [{ touched: ['/repo/x.ts'] }] })
    expect(textOf(instructionMessages(agent.session).at(-1)!)).toContain('Updated instructions from: ~/.dsh/AGENTS.md')
    expect(textOf(instructionMessages(agent.session).at(-1)!)).toContain('My work rules.')
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

  it('refuses a candidate reached through a parent directory link that leaves the project (no removal either, one outdated notice)', async () => {
    const rig = await new Rig({ files: { ...REPO, '/outside/AGENTS.md': 'Outside.' } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p', tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    rig.fs.remove('/repo/pkg')
    rig.fs.symlink('/repo/pkg', '/outside')
    await rig.step(agent, { tools: [{ touched: ['/repo/x.ts'] }] })
    await rig.step(agent, { tools: [{ touched: ['/repo/x.ts'] }] })
    expect(instructionMessages(agent.session).map(textOf).join()).not.toContain('Outside.')
    expect(changesOf(instructionMessages(agent.session).slice(2))).toEqual([{ action: 'replace', path: 'pkg/AGENTS.md' }])
    expect(textOf(instructionMessages(agent.session)[2]!)).toContain('(it links outside the trusted roots)')
  })

  it('sends the content once when the user-global file and the root candidate are the same file', async () => {
    const rig = await new Rig({ files: { '/repo/.git/x': '', '/repo/AGENTS.md': 'Both.' }, config: { dshHome: '/repo' } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    const [baseline] = instructionMessages(agent.session)
    expect(changesOf([baseline!])).toEqual([
      { action: 'set', path: '$DSH_HOME/AGENTS.md' },
      { action: 'set', path: 'AGENTS.md' },
    ])
    expect(textOf(baseline!).match(/Both\./gu)).toHaveLength(1)
    expect(textOf(baseline!)).toContain('Same file as $DSH_HOME/AGENTS.md: AGENTS.md.')
  })
})

/** A 50-byte file that grows by 10 MB while streamed, no size reported, a 100-byte cap; returns the rig after the first step. */
async function growingFile(providerIgnoresCap: boolean): Promise<{ rig: Rig; messages: number }> {
  const rig = await new Rig({ files: { '/repo/.git/x': '', '/repo/AGENTS.md': 'x'.repeat(50) }, config: { maxSourceBytes: 100 } }).start()
  rig.fs.faults.omitSizes = true
  rig.fs.faults.ignoreReadCap = providerIgnoresCap
  rig.fs.faults.grow.set('/repo/AGENTS.md', 10_000_000)
  const agent = rig.agent('/repo')
  await rig.step(agent, { prompt: 'p' })
  return { rig, messages: instructionMessages(agent.session).length }
}

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

  it('bounds a streamed read with its own running count when the size is unknown, the file grows and the provider ignores the cap', async () => {
    const { rig, messages } = await growingFile(true)
    expect(messages).toBe(0)
    // 7-byte chunks: the plugin stops at the first chunk past 100 bytes, not after 10 MB.
    expect(rig.fs.chunksStreamed).toBe(15)
    expect(rig.warnings).toEqual(['instruction file AGENTS.md is larger than maxSourceBytes; it is not loaded'])
  })

  it('reports a provider that rejects an oversized stream the same way', async () => {
    const { rig, messages } = await growingFile(false)
    expect(messages).toBe(0)
    expect(rig.fs.chunksStreamed).toBe(14)
    expect(rig.warnings).toEqual(['instruction file AGENTS.md is larger than maxSourceBytes; it is not loaded'])
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
    void rig.fs.nextHang().then(() => controller.abort(new Error('stop')))
    const entered = await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }], signal: controller.signal })
    expect(entered).toHaveLength(0)
  })
})

describe('links on the target path change while the candidate directory does not', () => {
  const files = { '/repo/.git/x': '', '/repo/pkg/a.ts': '', '/repo/shared/v1/AGENTS.md': 'V1 rules.', '/repo/shared/v2/AGENTS.md': 'V2 rules.', '/secret/AGENTS.md': 'SECRET' }

  /** A session that loaded pkg/AGENTS.md through `target` and re-examined it from trusted facts. */
  async function loadedThrough(target: string) {
    const rig = await new Rig({ files, config: { versionSettleMs: 0 } }).start()
    rig.fs.symlink('/repo/shared/current', 'v1')
    rig.fs.symlink('/repo/pkg/AGENTS.md', target)
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p', tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    rig.clock += 1000
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(changesOf(instructionMessages(agent.session))).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
    expect(textOf(instructionMessages(agent.session)[0]!)).toContain('V1 rules.')
    rig.clock += 1000
    return { rig, agent }
  }

  it('follows a retargeted intermediate link (rm + ln)', async () => {
    const { rig, agent } = await loadedThrough('../shared/current/AGENTS.md')
    rig.fs.remove('/repo/shared/current')
    rig.fs.symlink('/repo/shared/current', 'v2')
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    const last = instructionMessages(agent.session).at(-1)!
    expect(changesOf([last])).toEqual([{ action: 'replace', path: 'pkg/AGENTS.md' }])
    expect(textOf(last)).toContain('V2 rules.')
  })

  it('follows an intermediate link replaced in place (ln -sfn, no directory of the path changes version)', async () => {
    const { rig, agent } = await loadedThrough('../shared/current/AGENTS.md')
    rig.fs.symlink('/repo/shared/current', 'v2')
    const before = rig.fs.calls.length
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(textOf(instructionMessages(agent.session).at(-1)!)).toContain('V2 rules.')
    expect(rig.fs.calls.slice(before).filter((c) => c.method === 'streamText').map((c) => c.path)).toEqual(['/repo/shared/v2/AGENTS.md'])
  })

  it('refuses a target whose path component was swapped for a link out of the trusted roots', async () => {
    const { rig, agent } = await loadedThrough('../shared/v1/AGENTS.md')
    rig.fs.remove('/repo/shared/v1')
    rig.fs.symlink('/repo/shared/v1', '../../secret')
    const before = rig.fs.calls.length
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(instructionMessages(agent.session).map(textOf).join('\n')).not.toContain('SECRET')
    expect(rig.fs.calls.slice(before).filter((c) => c.method === 'streamText')).toEqual([])
    // The loaded text is not removed (the file exists), only flagged once as outdated.
    expect(changesOf(instructionMessages(agent.session).slice(1))).toEqual([{ action: 'replace', path: 'pkg/AGENTS.md' }])
    expect(textOf(instructionMessages(agent.session)[1]!)).toContain('Instructions outdated: pkg/AGENTS.md')
    expect(rig.warnings).toEqual(['instruction file pkg/AGENTS.md links outside the trusted roots; it is not loaded'])
  })
})
