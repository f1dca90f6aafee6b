// The advisory notices through the real kernel: each fires once under its condition, never
// blocks the call, can be switched off at runtime, and the ledger ones stay out of children.
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatRequestBody } from '@dsh/contracts'
import { call, lastMessage, notices, rig, toolTexts, type Rig } from './support/rig.ts'

let r: Rig | undefined
afterEach(async () => {
  await r?.dispose()
  r = undefined
})

const D = 'repo/.dsh-maintainer-doc-guard'
const LEDGER_LINE = '- mistake: broke the parser｜why: no test run｜correct: run npm test first｜trigger: edit + parser*.ts｜2026-11-30'

const edit = (from: string, to: string) => call('edit', { file_path: 'src/parser-v2.ts', old_string: from, new_string: to }, 'Editing parser-v2.ts to rename a.')
const readCall = (path: string) => call('read', { file_path: path }, `Reading ${path}.`)

describe('ledger hits', () => {
  it('deliver a matching line once per session and never block', async () => {
    r = await rig({ [`${D}/lessons.md`]: `${LEDGER_LINE}\n`, 'repo/src/parser-v2.ts': 'const a = 1\n' })
    const agent = await r.start([edit('a = 1', 'b = 1'), edit('b = 1', 'c = 1'), { text: 'done' }])
    await agent.prompt('rename it')
    expect(toolTexts(r.requests[1])).toEqual(['Edited src/parser-v2.ts: replaced 1 occurrence.'])
    expect(lastMessage(r.requests[1])).toBe(
      `maintainer-doc-guard: the lessons ledger has an entry for this kind of step (edit on src/parser-v2.ts):\n${LEDGER_LINE}\nCompare its "correct" field with what you just did before you go on. If your situation really differs from the recorded one, ignore this and continue.`,
    )
    expect(notices(r.requests[2]).filter((text) => text.includes('lessons ledger'))).toHaveLength(1)
  })

  it('cut a huge line to 600 characters', async () => {
    const huge = `- mistake: ${'x'.repeat(5000)}｜why: y｜correct: z｜trigger: edit + parser*.ts｜2026-11-30`
    r = await rig({ [`${D}/lessons.md`]: `${huge}\n`, 'repo/src/parser-v2.ts': 'const a = 1\n' })
    const agent = await r.start([edit('a = 1', 'b = 1'), { text: 'done' }])
    await agent.prompt('rename it')
    const line = (lastMessage(r.requests[1]) ?? '').split('\n')[1] ?? ''
    expect(line).toBe(`${huge.slice(0, 600)} … (cut; the whole line is in the ledger)`)
  })

  it('are silent when switched off and inside children by default', async () => {
    r = await rig({ [`${D}/lessons.md`]: '- mistake: a｜why: b｜correct: c｜trigger: read + a.md｜2026-11-30\n', 'repo/a.md': 'a\n' }, { childScript: [call('read', { file_path: 'a.md' }), { text: 'child done' }] })
    const agent = await r.start([{ toolCalls: [{ name: 'subagent', arguments: { prompt: 'read a.md' } }] }, { text: 'done' }])
    await agent.prompt('delegate')
    expect(r.childRequests.flatMap(notices).filter((text) => text.includes('lessons ledger'))).toEqual([])
    await r.guard.switches.set({ ledger: false })
    const again = await r.start([call('read', { file_path: 'a.md' }), { text: 'done' }])
    await again.prompt('read')
    expect(r.requests.slice(-1).flatMap(notices).filter((text) => text.includes('lessons ledger'))).toEqual([])
  })
})

describe('landing check', () => {
  it('fires once for an edit that deletes numbers, and not for one that failed', async () => {
    r = await rig({ 'repo/notes.md': 'The limit is 64 KiB, measured at 1,024 requests.\n', 'repo/other.md': 'Budget: 3 days.\n' })
    const shorten = call('edit', { file_path: 'notes.md', old_string: 'is 64 KiB, measured at 1,024 requests', new_string: 'is high' }, 'Shortening notes.md.')
    const missed = call('edit', { file_path: 'other.md', old_string: 'Budget: 5 days.', new_string: 'Budget: soon.' }, 'Shortening other.md.')
    const agent = await r.start([shorten, { ...shorten, text: 'Shortening notes.md again.' }, missed, { text: 'done' }])
    await agent.prompt('shorten')
    expect(lastMessage(r.requests[1])).toBe(
      'maintainer-doc-guard: your edit of "notes.md" removed numbers (2 in the old text, 0 in the new). If the deleted text carried a number or a conclusion, check that it lands somewhere else before the deletion stands, and say where. If you were only correcting a value in place, ignore this.',
    )
    expect(toolTexts(r.requests[1])).toEqual(['Edited notes.md: replaced 1 occurrence.'])
    expect(toolTexts(r.requests[3]).slice(1).map((text) => text.slice(0, 24))).toEqual(['old_string was not found', 'old_string was not found'])
    expect(notices(r.requests[3]).filter((text) => text.includes('removed numbers'))).toHaveLength(1)
  })
})

describe('completion standard', () => {
  it('reminds the next call once per code artifact written', async () => {
    r = await rig({ 'repo/a.md': 'a\n' })
    const write = call('write', { file_path: 'src/x.ts', content: 'export const x = 1\n' }, 'I will write src/x.ts now.')
    const read = call('read', { file_path: 'a.md' }, 'Reading a.md.')
    const agent = await r.start([write, read, write, read, { text: 'done' }])
    await agent.prompt('go')
    const verify = 'maintainer-doc-guard: you changed "src/x.ts". Do not call it done or fixed until you can state how you verified it: the command you ran, the result you expected and the reading you actually got.'
    expect(toolTexts(r.requests[3]).at(-1)).toBe('Overwrote src/x.ts (19 bytes).')
    expect(lastMessage(r.requests[2])).toBe(verify)
    expect(notices(r.requests[4]).filter((text) => text === verify)).toHaveLength(1)
  })
})

describe('subagent report', () => {
  it('reminds the next call that a child\'s report is input to verify', async () => {
    r = await rig({ 'repo/a.md': 'a\n' }, { childScript: [{ text: 'There are 3 files.' }] })
    const agent = await r.start([{ toolCalls: [{ name: 'subagent', arguments: { prompt: 'count files' } }] }, call('read', { file_path: 'a.md' }, 'Reading a.md.'), { text: 'done' }])
    await agent.prompt('count')
    expect(lastMessage(r.requests[2])).toMatch(/^maintainer-doc-guard: a subagent's report just came back\. Treat it as input to verify, not as a conclusion/u)
    expect(lastMessage(r.requests[2])).toContain('git status --short')
  })
})

describe('auto-induction', () => {
  it('appends one ledger line after a failure followed by success on the same target, and never for shell commands', async () => {
    r = await rig({ 'repo/src/a.ts': 'const a = 1\n' })
    const agent = await r.start([
      call('edit', { file_path: 'src/a.ts', old_string: 'const b = 1', new_string: 'const c = 1' }, 'Editing a.ts.'),
      call('edit', { file_path: 'src/a.ts', old_string: 'const a = 1', new_string: 'const c = 1' }, 'Editing a.ts again.'),
      call('bash', { command: 'false' }, 'Running bash false.'),
      call('bash', { command: 'true' }, 'Running bash true.'),
      { text: 'done' },
    ])
    await agent.prompt('go')
    const ledger = await readFile(r.tree.path(`${D}/lessons.md`), 'utf8')
    const lines = ledger.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^- mistake: edit on .*\/repo\/src\/a\.ts failed｜why: .+｜correct: the retry succeeded after changing old_string \(recorded by maintainer-doc-guard\)｜trigger: edit \+ .*\/repo\/src\/a\.ts｜2026-12-01$/u)
    expect(r.guard.counters.snapshot().counts['ledgerInduced']).toBe(1)
  })
})

/** A failed edit of src/<name>.ts followed by one that succeeds. */
const failThenFix = (name: string) => [
  call('edit', { file_path: `src/${name}.ts`, old_string: 'nope', new_string: 'x' }, `Editing ${name}.ts.`),
  call('edit', { file_path: `src/${name}.ts`, old_string: `const ${name}`, new_string: `let ${name}` }, `Editing ${name}.ts again.`),
]

describe('auto-induction, where and how often', () => {
  it('writes to the session\'s own ledger when it has one, and at most three lines per session', async () => {
    const files = Object.fromEntries(['a', 'b', 'c', 'd'].map((name) => [`repo/src/${name}.ts`, `const ${name} = 1\n`]))
    r = await rig(files)
    const agent = await r.start([...failThenFix('a'), ...failThenFix('b'), ...failThenFix('c'), ...failThenFix('d'), { text: 'done' }])
    const own = r.tree.path(`${D}/${agent.session.id}/lessons.md`)
    await mkdir(dirname(own), { recursive: true })
    await writeFile(own, '- mistake: old｜why: old｜correct: old｜trigger: read + x.md｜2026-11-01\n')
    await agent.prompt('go')
    const lines = (await readFile(own, 'utf8')).trim().split('\n')
    expect(lines.map((line) => /src\/(\w)\.ts failed/u.exec(line)?.[1] ?? 'old')).toEqual(['old', 'a', 'b', 'c'])
    expect(existsSync(r.tree.path(`${D}/lessons.md`))).toBe(false)
    expect(r.guard.counters.snapshot().counts['ledgerInduced']).toBe(3)
  })
})

/** The unread-documents reminders in a request. */
const unread = (body: ChatRequestBody | undefined) => notices(body).filter((text) => text.includes('have not read'))

describe('unread documents', () => {
  it('does not start over when one of the unread documents is read, only when one changes', async () => {
    r = await rig({ [`${D}/stack.md`]: 'Node 20.\n', [`${D}/state.md`]: 'Half done.\n', 'repo/a.md': 'a\n' })
    const agent = await r.start([readCall('a.md'), readCall('a.md'), readCall('.dsh-maintainer-doc-guard/stack.md'), readCall('a.md'), readCall('a.md'), { text: 'done' }, readCall('a.md'), { text: 'done' }])
    await agent.prompt('go')
    expect(unread(r.requests[5])).toHaveLength(2)
    await writeFile(r.tree.path(`${D}/state.md`), 'Nearly done.\n')
    await agent.prompt('go on')
    expect(unread(r.requests.at(-1)).slice(2)).toEqual(["maintainer-doc-guard: this session has documents with content you have not read:\n- .dsh-maintainer-doc-guard/state.md\nListing is not reading. Open them before you go on: they are the operator's standing instructions and outrank your own inferences."])
  })

  it('reminds twice per version, the second time with excerpts, and stops once read', async () => {
    r = await rig({ [`${D}/plan.md`]: 'Plan.\n', [`${D}/stack.md`]: 'Node 20, vitest.\n', 'repo/a.md': 'a\n' })
    const agent = await r.start([readCall('a.md'), readCall('a.md'), readCall('a.md'), readCall('.dsh-maintainer-doc-guard/stack.md'), readCall('a.md'), { text: 'done' }])
    await agent.prompt('go')
    const docs = r.requests.map((body) => {
      const last = lastMessage(body) ?? ''
      return last.includes('have not read') ? last : undefined
    })
    expect(docs[1]).toBe(
      "maintainer-doc-guard: this session has documents with content you have not read:\n- .dsh-maintainer-doc-guard/stack.md\nListing is not reading. Open them before you go on: they are the operator's standing instructions and outrank your own inferences.",
    )
    expect(docs[2]).toBe(
      "maintainer-doc-guard: second reminder: these documents still have content you have not read. Excerpts follow; they are the operator's standing instructions.\n\n--- begin .dsh-maintainer-doc-guard/stack.md ---\nNode 20, vitest.\n--- end .dsh-maintainer-doc-guard/stack.md ---",
    )
    expect(docs.slice(3)).toEqual([undefined, undefined, undefined])
  })
})
