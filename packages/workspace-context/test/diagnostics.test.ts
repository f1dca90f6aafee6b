// Diagnostics: every warning of the plugin reaches the `warn` hook of
// `createWorkspaceContextPlugin({ warn })` as one terminal-safe line — candidates that exist but
// cannot be used (once per file and reason) and the failures of a pre-step or a refresh.
import { describe, expect, it } from 'vitest'
import { instructionMessages, REPO } from './support/fixtures.ts'
import { Rig } from './support/rig.ts'

describe('diagnostics through the warn hook', () => {
  it('reports an unreadable, a not-UTF-8 and an escaping candidate once each', async () => {
    const rig = await new Rig({ files: { ...REPO, '/secret.txt': 'S', '/repo/pkg/AGENTS.local.md': 'local' } }).start()
    rig.fs.faults.failRead.add('/repo/AGENTS.md')
    rig.fs.write('/repo/pkg/AGENTS.md', new Uint8Array([0xff]))
    rig.fs.symlink('/repo/pkg/CLAUDE.local.md', '/secret.txt')
    rig.fs.remove('/repo/pkg/AGENTS.local.md')
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p', tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(rig.warnings).toEqual([
      'instruction file AGENTS.md could not be read (injected read failure: /repo/AGENTS.md); it is not loaded',
      'instruction file pkg/AGENTS.md is not UTF-8 text; it is not loaded',
      'instruction file pkg/CLAUDE.local.md links outside the trusted roots; it is not loaded',
    ])
  })

  it('reports a failed pre-step and a failed refresh on one line each, with control characters made visible', async () => {
    const rig = await new Rig({ files: REPO }).start()
    const first = rig.agent('/repo')
    await rig.step(first, { prompt: 'p' })
    // A resumed instance whose session view fails while the plugin derives its state.
    const agent = rig.agent('/repo', first.session)
    const lookup = agent.session.eventBySeq.bind(agent.session)
    agent.session.eventBySeq = () => {
      throw new Error('session view broke\nsecond line \u001b[2J')
    }
    const entered = await rig.step(agent, { prompt: 'r' })
    expect(entered).toHaveLength(1)
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    agent.session.eventBySeq = lookup
    // Each failing pre-step (the first of the instance is retried at the next one) and the refresh.
    expect(rig.warnings).toEqual([
      'workspace instructions could not be prepared: session view broke^Jsecond line ^[[2J',
      'workspace instructions could not be prepared: session view broke^Jsecond line ^[[2J',
      'workspace instruction refresh failed: session view broke^Jsecond line ^[[2J',
    ])
    expect(instructionMessages(agent.session)).toHaveLength(1)
  })

  it('makes control characters in a reported file name visible', async () => {
    const rig = await new Rig({ files: { '/repo/.git/x': '', '/repo/e\u001b]52;c;cGF5bG9hZA==\u0007/AGENTS.md': 'x\u0000y', '/repo/e\u001b]52;c;cGF5bG9hZA==\u0007/a.ts': '' } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p', tools: [{ touched: ['/repo/e\u001b]52;c;cGF5bG9hZA==\u0007/a.ts'] }] })
    expect(rig.warnings).toEqual(['instruction file e^[]52;c;cGF5bG9hZA==^G/AGENTS.md contains NUL bytes; it is not loaded'])
  })
})
