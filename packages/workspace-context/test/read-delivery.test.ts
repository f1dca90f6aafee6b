// Reading an instruction file is its delivery (issue 8 item 2, decision D9): after a successful
// top-level `read` that showed the whole file (the read tool's `meta.sha256`), the scope is recorded
// with that content's digest and only a one-line frame names it as now in effect. A partial read,
// a changed file or a result the model did not see in full still sends the text; compaction that
// shadows the tool result re-arms the scope.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { changesOf, instructionMessages, REPO, sourceOf, textOf } from './support/fixtures.ts'
import { Rig, type RigAgent, type ToolSpec } from './support/rig.ts'

const DOCS = 'Docs rules: write short sentences.\n'
const FILES = { ...REPO, '/repo/docs/AGENTS.md': DOCS, '/repo/docs/guide.md': 'g' }
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

async function started(): Promise<{ rig: Rig; agent: RigAgent }> {
  const rig = await new Rig({ files: FILES }).start()
  const agent = rig.agent('/repo')
  await rig.step(agent, { prompt: 'start' })
  return { rig, agent }
}

const readOf = (path: string, text: string | undefined, extra: Partial<ToolSpec> = {}): ToolSpec => ({ name: 'read', touched: [path], ...(text === undefined ? {} : { meta: { sha256: sha256(text) } }), ...extra })
const last = (agent: RigAgent) => instructionMessages(agent.session).at(-1)!

describe('a whole-file read of an instruction file is its delivery', () => {
  it('sends one line naming the file as now in effect instead of its text', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [readOf('/repo/docs/AGENTS.md', DOCS)] })
    expect(textOf(last(agent))).toBe(
      '<system-reminder>\nInstructions now in effect: docs/AGENTS.md. You just read this file in full; its instructions apply to work under `docs`. Use them as guidance when relevant; more specific instructions take precedence. They do not override system, developer, or direct user instructions.\n</system-reminder>',
    )
    expect(sourceOf(last(agent))?.changes).toEqual([expect.objectContaining({ action: 'set', path: 'docs/AGENTS.md', digest: sha256(DOCS), readCallId: expect.any(String) })])
  })

  it('then treats the scope as loaded: another touch below it sends nothing', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [readOf('/repo/docs/AGENTS.md', DOCS)] })
    const count = instructionMessages(agent.session).length
    await rig.step(agent, { tools: [{ touched: ['/repo/docs/guide.md'] }] })
    expect(instructionMessages(agent.session)).toHaveLength(count)
  })

  it('still sends the full text after a partial read', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [readOf('/repo/docs/AGENTS.md', undefined)] })
    expect(textOf(last(agent))).toContain(`Additional instructions from: docs/AGENTS.md`)
    expect(textOf(last(agent))).toContain(DOCS)
  })

  it('still sends the full text when the file changed after the read showed it', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [readOf('/repo/docs/AGENTS.md', DOCS, { effect: () => rig.fs.write('/repo/docs/AGENTS.md', 'Changed meanwhile.\n') })] })
    expect(textOf(last(agent))).toContain('Changed meanwhile.')
  })

  it('still sends the full text when a listener replaced what the model sees', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [readOf('/repo/docs/AGENTS.md', DOCS, { contentReplacedByInner: true })] })
    expect(textOf(last(agent))).toContain(DOCS)
  })

  it('does not count a read inside Code Mode (its text goes to the code, not the model)', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [{ name: 'run_code', nested: [readOf('/repo/docs/AGENTS.md', DOCS)] }] })
    expect(textOf(last(agent))).toContain(DOCS)
  })

  it('says an updated file the model read in full is now in effect', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [{ touched: ['/repo/docs/guide.md'] }] })
    rig.fs.write('/repo/docs/AGENTS.md', 'Docs rules v2.\n')
    await rig.step(agent, { tools: [readOf('/repo/docs/AGENTS.md', 'Docs rules v2.\n')] })
    expect(changesOf([last(agent)])).toEqual([{ action: 'replace', path: 'docs/AGENTS.md' }])
    expect(textOf(last(agent))).toBe(
      '<system-reminder>\nUpdated instructions now in effect: docs/AGENTS.md. You just read this file in full; it changed after it was loaded, and its current content replaces everything previously loaded from it.\n</system-reminder>',
    )
  })

  it('re-arms the scope when compaction shadows the tool result, though the line is still visible', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [readOf('/repo/docs/AGENTS.md', DOCS)] })
    // Keep only the line: the tool result before it leaves the surface.
    rig.compact(agent, 1)
    await rig.step(agent, { prompt: 'again', tools: [{ touched: ['/repo/docs/guide.md'] }] })
    expect(textOf(last(agent))).toContain(`Additional instructions from: docs/AGENTS.md`)
    expect(textOf(last(agent))).toContain(DOCS)
  })

  it('re-arms the scope when the read result ended as an error (blocked by a guard that kept the contexts)', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [readOf('/repo/docs/AGENTS.md', DOCS, { blockedByOuterKeepingContexts: true })] })
    await rig.step(agent, { tools: [{ touched: ['/repo/docs/guide.md'] }] })
    expect(textOf(last(agent))).toContain(DOCS)
  })
})
