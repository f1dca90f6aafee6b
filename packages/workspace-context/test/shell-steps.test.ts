// Decision D8 (issue 8 item 6): after a step in which `bash` or `run_code` ran, the next entering
// pre-step re-checks every loaded scope — one stat per loaded directory and per loaded file, no
// path inference from commands — and enters update, switch and removal notices with the step.
import { describe, expect, it } from 'vitest'
import { changesOf, instructionMessages, REPO, textOf } from './support/fixtures.ts'
import { Rig, type RigAgent, type ToolSpec } from './support/rig.ts'

async function started(files: Record<string, string> = REPO): Promise<{ rig: Rig; agent: RigAgent }> {
  const rig = await new Rig({ files, timestamps: true }).start()
  const agent = rig.agent('/repo')
  rig.clock += 1000
  await rig.step(agent, { prompt: 'start' })
  // pkg/AGENTS.md is loaded by a read below it.
  await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
  rig.clock += 1000
  return { rig, agent }
}

const shell = (effect: () => void, extra: Partial<ToolSpec> = {}): ToolSpec => ({ name: 'bash', effect, ...extra })

describe('shell changes are noticed at the next step (D8)', () => {
  it('enters an update made by the shell with the next step, before any touch', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [shell(() => rig.fs.write('/repo/pkg/AGENTS.md', 'Pkg rules, edited by sed -i.\n'))] })
    const count = instructionMessages(agent.session).length
    const entered = await rig.step(agent, {})
    expect(instructionMessages(agent.session)).toHaveLength(count + 1)
    expect(entered.map(textOf)).toEqual([expect.stringContaining('Updated instructions from: pkg/AGENTS.md')])
    expect(textOf(entered[0]!)).toContain('Pkg rules, edited by sed -i.')
  })

  it('enters a switch and a removal made by the shell (a git pull, an rm)', async () => {
    const { rig, agent } = await started({ ...REPO, '/repo/pkg/CLAUDE.md': 'Claude pkg rules.\n' })
    await rig.step(agent, {
      tools: [
        shell(() => {
          rig.fs.remove('/repo/pkg/AGENTS.md')
          rig.fs.remove('/repo/AGENTS.md')
        }),
      ],
    })
    const entered = await rig.step(agent, { prompt: 'next turn' })
    expect(textOf(entered[0]!)).toBe('next turn')
    expect(changesOf(entered)).toEqual([
      { action: 'remove', path: 'AGENTS.md' },
      { action: 'replace', path: 'pkg/CLAUDE.md' },
    ])
    expect(textOf(entered[1]!)).toContain('The instructions previously loaded from pkg/AGENTS.md no longer apply')
  })

  it('counts run_code, and a shell call that failed (it may have changed files before failing)', async () => {
    for (const tool of ['run_code', 'bash'] as const) {
      const { rig, agent } = await started()
      await rig.step(agent, { tools: [shell(() => rig.fs.write('/repo/AGENTS.md', `Root by ${tool}.\n`), { name: tool, isError: tool === 'bash' })] })
      const entered = await rig.step(agent, {})
      expect(textOf(entered.at(-1)!)).toContain(`Root by ${tool}.`)
    }
  })

  it('costs one stat per loaded directory and per loaded file, nothing else', async () => {
    const { rig, agent } = await started({ ...REPO, '/repo/pkg/AGENTS.local.md': 'Local.\n' })
    await rig.step(agent, { tools: [shell(() => undefined)] })
    rig.clock += 1000
    const before = rig.fs.calls.length
    await rig.step(agent, {})
    const calls = rig.fs.calls.slice(before)
    // Loaded: ~/.dsh/AGENTS.md, AGENTS.md, pkg/AGENTS.md and pkg/AGENTS.local.md in three directories.
    expect(calls.map((c) => `${c.method} ${c.path}`).toSorted()).toEqual(
      ['/home/user/.dsh', '/home/user/.dsh/AGENTS.md', '/repo', '/repo/AGENTS.md', '/repo/pkg', '/repo/pkg/AGENTS.local.md', '/repo/pkg/AGENTS.md'].map((path) => `stat ${path}`),
    )
  })

  it('re-checks nothing after steps without a shell tool, or when the shell call was denied', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [{ name: 'grep' }] })
    const before = rig.fs.calls.length
    await rig.step(agent, {})
    expect(rig.fs.calls.length).toBe(before)
    await rig.step(agent, { tools: [shell(() => rig.fs.write('/repo/AGENTS.md', 'never'), { denied: true })] })
    const after = rig.fs.calls.length
    await rig.step(agent, {})
    expect(rig.fs.calls.length).toBe(after)
  })

  it('infers nothing from commands: a new file in a directory with nothing loaded waits for a touch', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [shell(() => rig.fs.write('/repo/other/AGENTS.md', 'Other rules.\n'))] })
    const count = instructionMessages(agent.session).length
    await rig.step(agent, {})
    expect(instructionMessages(agent.session)).toHaveLength(count)
    await rig.step(agent, { tools: [{ touched: ['/repo/other/c.ts'] }] })
    expect(textOf(instructionMessages(agent.session).at(-1)!)).toContain('Additional instructions from: other/AGENTS.md')
  })

  it('keeps the re-check for the next entering pre-step when a step is rejected', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [shell(() => rig.fs.write('/repo/pkg/AGENTS.md', 'Edited.\n'))] })
    await rig.step(agent, { prompt: 'blocked', reject: true })
    const entered = await rig.step(agent, { prompt: 'again' })
    expect(textOf(entered.at(-1)!)).toContain('Edited.')
  })
})
