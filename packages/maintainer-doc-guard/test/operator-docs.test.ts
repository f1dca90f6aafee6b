// Operator documents are read-only to the model: write, edit and shell writes of plan.md and
// conventions.md are denied without escape and point to the ledger; project files of the same
// name and the ledger stay writable; the config key and the runtime switch lift the rule.
import { readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ToolDefinition } from '@dsh/contracts'
import { operatorDocMatcher } from '../src/operator-docs.ts'
import { call, rig, toolTexts, type Rig } from './support/rig.ts'

let r: Rig | undefined
afterEach(async () => {
  await r?.dispose()
  r = undefined
})

const D = '.dsh-maintainer-doc-guard'
const DOCS = { [`repo/${D}/plan.md`]: 'The plan.\n', [`repo/${D}/conventions.md`]: 'Rules.\n', 'repo/docs/plan.md': 'project plan\n' }
const DENIAL = [
  `The write call was denied: Blocked by maintainer-doc-guard: "${D}/plan.md" is an operator document, and operator documents are read-only to you (this write call would change it). Reading another copy of it does not lift this rule.`,
  '',
  `Record what you learned in the document you own instead, the lessons ledger ${D}/lessons.md, one line per lesson:`,
  '- mistake: …｜why: …｜correct: …｜trigger: <tool> + <path fragment>｜YYYY-MM-DD',
  '',
  'If the operator document itself has to change, tell the user what to change. Only the operator can lift this rule (gate.operatorDocsReadOnly: false in the configuration, or the operatorDocsReadOnly switch). Do not retry it unchanged; choose another approach or ask the user.',
].join('\n')

const writePlan = call('write', { file_path: `${D}/plan.md`, content: 'my plan' }, 'I will rewrite plan.md with the new plan.')

const docWrite: ToolDefinition<{ name: string; content: string }> = {
  name: 'doc_write',
  description: 'Writes a maintainer document by name.',
  parameters: z.object({ name: z.string(), content: z.string() }),
  execute: (args) => Promise.resolve({ content: `wrote ${args.name}` }),
}

describe('operator documents', () => {
  it('denies a write to plan.md every time, pointing to the ledger', async () => {
    r = await rig(DOCS)
    const agent = await r.start([writePlan, writePlan, writePlan, { text: 'ok' }])
    await agent.prompt('go')
    expect(toolTexts(r.requests[3])).toEqual([DENIAL, DENIAL, DENIAL])
    expect(r.guard.counters.snapshot().counts['operatorDocsDenied']).toBe(3)
  })

  it('denies a write through a link inside the cwd to plan.md (canonical path; issue 19 regression test)', async () => {
    r = await rig(DOCS)
    symlinkSync(join(r.cwd, D, 'plan.md'), join(r.cwd, 'notes.md'))
    const agent = await r.start([call('write', { file_path: 'notes.md', content: 'my plan' }, 'Writing my notes.'), { text: 'ok' }])
    await agent.prompt('go')
    expect(toolTexts(r.requests[1])[0]).toContain(`Blocked by maintainer-doc-guard: "${D}/plan.md" is an operator document`)
    expect(readFileSync(join(r.cwd, D, 'plan.md'), 'utf8')).toBe('The plan.\n')
  })

  it('denies edits of a session\'s conventions.md and shell commands that write the plan', async () => {
    r = await rig(DOCS)
    const agent = await r.start([
      call('edit', { file_path: `${D}/some-session/conventions.md`, old_string: 'a', new_string: 'b' }, 'Editing conventions.md now.'),
      call('bash', { command: `echo "- done" >> ${D}/plan.md` }, 'Appending to plan.md with echo.'),
      call('bash', { command: `cat ${D}/plan.md` }, 'Reading plan.md with cat.'),
      { text: 'ok' },
    ])
    await agent.prompt('go')
    const [edit, append, read] = toolTexts(r.requests[3])
    expect(edit).toContain(`Blocked by maintainer-doc-guard: "${D}/some-session/conventions.md" is an operator document`)
    expect(append).toContain(`Blocked by maintainer-doc-guard: "${D}/plan.md" is an operator document, and operator documents are read-only to you (this bash command would change it).`)
    expect(read).toBe('The plan.\n\n[Exit code: 0]')
  })

  it('denies removing or copying into a folder that holds operator documents, and names the folder', async () => {
    r = await rig({ ...DOCS, [`repo/${D}/20261130-101010-abcdef/plan.md`]: 'Session plan.\n' })
    const agent = await r.start([
      call('bash', { command: `rm -rf ${D}` }, 'Cleaning up with rm.'),
      call('bash', { command: `cp notes.md ${D}/20261130-101010-abcdef/` }, 'Copying notes.md with cp.'),
      call('bash', { command: `rm -rf ${D}/missing-folder` }, 'Removing the missing folder with rm.'),
      { text: 'ok' },
    ])
    await agent.prompt('go')
    const [removal, copy, missing] = toolTexts(r.requests[3])
    expect(removal).toContain(`Blocked by maintainer-doc-guard: "${D}" holds operator documents, and operator documents are read-only to you (this bash command would change them). Reading other copies of them does not lift this rule.`)
    expect(removal).toMatch(/Do not retry it unchanged; choose another approach or ask the user\.$/u)
    expect(copy).toContain(`"${D}/20261130-101010-abcdef" holds operator documents`)
    expect(missing).toBe('(no output)\n\n[Exit code: 0]')
    expect(readFileSync(join(r.cwd, D, 'plan.md'), 'utf8')).toBe('The plan.\n')
  })

  it('denies a doc_write tool that names an operator document', async () => {
    r = await rig(DOCS, { extraTools: [docWrite] })
    const agent = await r.start([call('doc_write', { name: 'conventions.md', content: 'x' }, 'Updating conventions.md via doc_write.'), call('doc_write', { name: 'state.md', content: 'x' }, 'Updating state.md via doc_write.'), { text: 'ok' }])
    await agent.prompt('go')
    const [conventions, state] = toolTexts(r.requests[2])
    expect(conventions).toContain('Blocked by maintainer-doc-guard: "conventions.md" is an operator document')
    expect(state).toBe('wrote state.md')
  })

  it('recognises absolute operator document entries, and only those', () => {
    const isOperatorDoc = operatorDocMatcher({ docs: ['/srv/ops/plan.md', 'conventions.md', '/srv/ops/stack.md'], docsDir: D })
    expect(['/srv/ops/plan.md', '/srv/other/plan.md', '/srv/ops/stack.md', `/w/${D}/conventions.md`, `/w/${D}/plan.md`].map(isOperatorDoc)).toEqual([true, false, false, true, false])
  })

  it('leaves project files of the same name and the ledger writable', async () => {
    r = await rig(DOCS)
    const agent = await r.start([
      call('write', { file_path: 'docs/plan.md', content: 'x' }, 'Updating docs/plan.md for the project.'),
      call('write', { file_path: `${D}/lessons.md`, content: '- mistake: a｜why: b｜correct: c｜trigger: edit + x｜2026-12-01\n' }, 'Recording a lesson in lessons.md.'),
      { text: 'ok' },
    ])
    await agent.prompt('go')
    expect(toolTexts(r.requests[2])).toEqual(['Overwrote docs/plan.md (1 bytes).', `Created ${D}/lessons.md (68 bytes).`])
  })

  it('is lifted by the runtime switch and by the config key', async () => {
    r = await rig(DOCS)
    await r.guard.switches.set({ operatorDocsReadOnly: false })
    let agent = await r.start([writePlan, { text: 'ok' }])
    await agent.prompt('go')
    expect(toolTexts(r.requests[1])).toEqual([`Overwrote ${D}/plan.md (7 bytes).`])
    await r.dispose()
    r = await rig(DOCS, { config: { gate: { operatorDocsReadOnly: false } } })
    agent = await r.start([writePlan, { text: 'ok' }])
    await agent.prompt('go')
    expect(toolTexts(r.requests[1])).toEqual([`Overwrote ${D}/plan.md (7 bytes).`])
  })
})
