// Session ids by unique prefix, and the cheap listing (header, title, turns, size) kept in an index.
import { appendFileSync, copyFileSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import * as fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createUserMessage, SessionStore, type Session } from '../src/index.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

function store(warnings: string[] = [], at = '2026-01-02T03:04:05Z') {
  return new SessionStore({ directory: tree.path('sessions'), clock: () => new Date(at), warn: (line) => warnings.push(line) })
}

/** Appends one turn with a typed prompt and an answer. */
function turn(session: Session, number: number, prompt: string): void {
  session.append('turn/start', { turn: number })
  session.append('user/message', { turn: number, step: 1, message: createUserMessage({ text: prompt, source: { kind: 'user' } }) }, { surfaceOp: 'append' })
  session.append('assistant/message', { turn: number, step: 1, message: { id: `a${number}`, role: 'assistant', content: [{ type: 'text', text: 'ok' }], source: { kind: 'model' } } }, { surfaceOp: 'append' })
  session.append('turn/end', { turn: number, reason: 'completed' })
}

/** Writes a closed session file with a given id (the id decides prefix matching). */
function sessionFile(id: string, turns: readonly string[] = []): string {
  const file = tree.path(`sessions/${id}.jsonl`)
  const header = { type: 'session', version: 1, id, createdAt: '2026-01-02T03:04:05.000Z', cwd: tree.root, delegationDepth: 0 }
  const events = turns.flatMap((prompt, index) => [
    { type: 'turn/start', seq: index * 2 + 1, time: 't', data: { turn: index + 1 } },
    { type: 'user/message', seq: index * 2 + 2, time: 't', data: { turn: index + 1, step: 1, message: createUserMessage({ text: prompt, source: { kind: 'user' } }) }, surfaceOp: 'append' },
  ])
  writeFileSync(file, [header, ...events].map((line) => `${JSON.stringify(line)}\n`).join(''))
  return file
}

const rowsOf = (s: SessionStore) => s.list().map((row) => ({ id: row.id, title: row.title, turns: row.turnCount, events: row.eventCount, size: row.size }))

describe('session ids by unique prefix', () => {
  it('a unique prefix names its session for load and open; a whole id names itself even when it prefixes another', async () => {
    tree = await tempTree({ 'sessions/': null })
    sessionFile('20260102-030405-aaaaaa', ['first'])
    sessionFile('20260102-030405-aaaaaa2', ['second'])
    sessionFile('20260105-111111-bbbbbb', ['third'])
    expect(store().resolve('20260105')).toBe('20260105-111111-bbbbbb')
    expect(store().load('20260105').id).toBe('20260105-111111-bbbbbb')
    expect(store().resolve('20260102-030405-aaaaaa')).toBe('20260102-030405-aaaaaa')
    const opened = store().open('20260102-030405-aaaaaa2')
    expect(opened.id).toBe('20260102-030405-aaaaaa2')
    opened.close()
  })

  it('an ambiguous prefix names how many sessions match and a few of them, newest first', async () => {
    tree = await tempTree({ 'sessions/': null })
    for (const suffix of ['a1', 'a2', 'a3', 'a4', 'a5', 'a6']) sessionFile(`20260102-${suffix}`)
    sessionFile('20270101-zz')
    expect(() => store().open('2026')).toThrow('ambiguous prefix: 6 sessions start with "2026": 20260102-a6, 20260102-a5, 20260102-a4, 20260102-a3, and 2 more; type more of the id')
    expect(() => store().load('20260102-a')).toThrow(expect.objectContaining({ code: 'SESSION_AMBIGUOUS' }))
  })

  it('no match is SESSION_NOT_FOUND naming the directory, also before any session exists', async () => {
    tree = await tempTree()
    expect(() => store().load('2026')).toThrow(`no session "2026" in ${tree.path('sessions')}`)
    await tree.write({ 'sessions/': null })
    sessionFile('20260102-x')
    expect(() => store().open('2027')).toThrow(expect.objectContaining({ code: 'SESSION_NOT_FOUND' }))
    expect(() => store().load('../2026')).toThrow(/invalid session id/)
  })
})

describe('session listing', () => {
  it('gives id, header, one-line title, turns, events, size and mtime, most recently updated first', async () => {
    tree = await tempTree()
    const older = store([], '2026-01-01T00:00:00Z').create({ cwd: tree.root })
    turn(older, 1, 'fix the\n  parser   please')
    turn(older, 2, 'and the tests')
    older.close()
    const newer = store([], '2026-01-02T00:00:00Z').create({ cwd: tree.root })
    newer.close()
    utimesSync(store().fileOf(older.id), new Date('2026-03-01T00:00:00Z'), new Date('2026-03-01T00:00:00Z'))
    utimesSync(store().fileOf(newer.id), new Date('2026-02-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z'))
    const rows = store().list()
    expect(rows.map((row) => row.id)).toEqual([older.id, newer.id])
    expect(rows[0]).toEqual({
      id: older.id,
      header: older.header,
      title: 'fix the parser please',
      updatedAt: new Date('2026-03-01T00:00:00Z'),
      turnCount: 2,
      eventCount: 8,
      size: statSync(store().fileOf(older.id)).size,
    })
    expect(rows[1]).toMatchObject({ id: newer.id, turnCount: 0, eventCount: 0 })
    expect(rows[1]?.title).toBeUndefined()
  })

  it('counts come from the end of a file of any size, past long last lines, without the index', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    for (let number = 1; number <= 300; number++) turn(session, number, `prompt ${number} ${'y'.repeat(2000)}`)
    session.append('turn/start', { turn: 301 })
    const call = { type: 'tool-call' as const, callId: 'c1', name: 'read', arguments: '{}' }
    session.append('assistant/message', { turn: 301, step: 1, message: { id: 'big', role: 'assistant', content: [call], source: { kind: 'model' } } }, { surfaceOp: 'append' })
    session.append('tool/result', { turn: 301, step: 1, message: { id: 'r', role: 'tool', callId: 'c1', toolName: 'read', isError: false, content: [{ type: 'text', text: 'z'.repeat(100_000) }], source: { kind: 'tool' } } }, { surfaceOp: 'append' })
    session.append('agent/inbox/spliced', { target: 'next-turn', start: -1, removedIds: [], inserted: [createUserMessage({ text: 'queued', source: { kind: 'user' } })] })
    session.close()
    expect(statSync(store().fileOf(session.id)).size).toBeGreaterThan(700_000)
    expect(rowsOf(store())[0]).toMatchObject({ title: `prompt 1 ${'y'.repeat(190)}…`, turns: 301, events: 1204 })
  })

  it('a child session is titled by its delegation', async () => {
    tree = await tempTree()
    const child = store().create({ cwd: tree.root, parentSession: 'p-1', origin: 'subagent', delegationDepth: 1 })
    child.append('user/message', { message: createUserMessage({ text: 'summarise a.ts', source: { kind: 'delegation', parentSession: 'p-1', parentCallId: 'c1' } }) }, { surfaceOp: 'append' })
    child.close()
    expect(store().list()[0]).toMatchObject({ title: 'summarise a.ts', header: { origin: 'subagent', parentSession: 'p-1' } })
  })

  it('a copied file is listed once under its file name and its header id is reported', async () => {
    tree = await tempTree({ 'sessions/': null })
    const original = sessionFile('20260102-original', ['hello'])
    copyFileSync(original, tree.path('sessions/20260103-copy.jsonl'))
    const warnings: string[] = []
    expect(rowsOf(store(warnings)).map((row) => row.id).toSorted()).toEqual(['20260102-original', '20260103-copy'])
    expect(warnings).toEqual([`${tree.path('sessions/20260103-copy.jsonl')}: its header names session "20260102-original"; listed by its file name "20260103-copy"`])
    const loaded = store().load('20260103')
    expect(loaded.id).toBe('20260103-copy')
  })

  it('a header id carrying control characters is reported escaped, in the listing and on load', async () => {
    tree = await tempTree({ 'sessions/': null })
    const file = sessionFile('20260103-odd', ['hello'])
    writeFileSync(file, readFileSync(file, 'utf8').replace('"id":"20260103-odd"', '"id":"x\\u001b]0;owned\\u0007"'))
    const warnings: string[] = []
    expect(rowsOf(store(warnings)).map((row) => row.id)).toEqual(['20260103-odd'])
    store(warnings).load('20260103-odd')
    expect(warnings).toEqual([
      `${file}: its header names session "x\\u001b]0;owned\\u0007"; listed by its file name "20260103-odd"`,
      `${file}: its header names session "x\\u001b]0;owned\\u0007"; using its file name "20260103-odd"`,
    ])
  })

  it('an empty file is reported as empty, a file with a bad header as such, and the others are still listed', async () => {
    tree = await tempTree({ 'sessions/': null })
    sessionFile('20260102-good', ['hi'])
    writeFileSync(tree.path('sessions/20260102-empty.jsonl'), '')
    writeFileSync(tree.path('sessions/20260102-bad.jsonl'), '{"type":"turn/start"}\n')
    const warnings: string[] = []
    expect(rowsOf(store(warnings)).map((row) => row.id)).toEqual(['20260102-good'])
    expect(warnings.toSorted()).toEqual([
      `skipping ${tree.path('sessions/20260102-bad.jsonl')}: ${tree.path('sessions/20260102-bad.jsonl')}:1: first line is not a session header (type: Invalid input: expected "session")`,
      `skipping ${tree.path('sessions/20260102-empty.jsonl')}: ${tree.path('sessions/20260102-empty.jsonl')}: empty (no header)`,
    ])
  })

  it('follows appends, rewrites, replacements and a lost or corrupt index', async () => {
    tree = await tempTree({ 'sessions/': null })
    const file = sessionFile('20260102-s', ['one'])
    expect(rowsOf(store())[0]).toMatchObject({ title: 'one', turns: 1, events: 2 })
    appendFileSync(file, `${JSON.stringify({ type: 'turn/start', seq: 3, time: 't', data: { turn: 2 } })}\n{"type":"turn/st`)
    expect(rowsOf(store())[0]).toMatchObject({ turns: 2, events: 3 })
    appendFileSync(file, `art","seq":4,"time":"t","data":{"turn":3}}\n`)
    expect(rowsOf(store())[0]).toMatchObject({ turns: 3, events: 4 })
    sessionFile('20260102-s', ['rewritten, longer than before', 'two', 'three'])
    expect(rowsOf(store())[0]).toMatchObject({ title: 'rewritten, longer than before', turns: 3, events: 6 })
    rmSync(file)
    sessionFile('20260102-s', ['replaced'])
    expect(rowsOf(store())[0]).toMatchObject({ title: 'replaced', turns: 1 })
    writeFileSync(tree.path('sessions/.list-index.json'), '{"version":1,"entries":{"20260102-s.jsonl":{"ino":1}}')
    expect(rowsOf(store())[0]).toMatchObject({ title: 'replaced', turns: 1 })
    rmSync(tree.path('sessions/.list-index.json'))
    expect(rowsOf(store())[0]).toMatchObject({ title: 'replaced', turns: 1 })
    expect(JSON.parse(readFileSync(tree.path('sessions/.list-index.json'), 'utf8'))).toMatchObject({ version: 1 })
  })

  it('an unchanged file is listed from the index without being read again', async () => {
    tree = await tempTree({ 'sessions/': null })
    const file = sessionFile('20260102-s', ['original title'])
    store().list()
    const { mtime } = statSync(file)
    const bytes = readFileSync(file, 'utf8')
    writeFileSync(file, bytes.replace('original title', 'changed  title'))
    utimesSync(file, mtime, mtime)
    expect(rowsOf(store())[0]?.title).toBe('original title')
  })

  it('listing after any sequence of partial appends equals listing the final file from scratch', async () => {
    tree = await tempTree({ 'sessions/': null })
    const event = fc.oneof(
      fc.string({ maxLength: 12 }).map((text) => ({ type: 'user/message', data: { message: createUserMessage({ text: `p ${text}`, source: { kind: 'user' } }) } })),
      fc.constant({ type: 'turn/start', data: { turn: 1 } }),
      fc.constant({ type: 'step/end', data: { turn: 1, step: 1 } }),
    )
    let round = 0
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 12 }), fc.array(fc.nat(400), { maxLength: 6 }), async (events, cuts) => {
        round += 1
        const id = `20260102-r${round}`
        const file = sessionFile(id)
        const text = events.map((item, index) => `${JSON.stringify({ type: item.type, seq: index + 1, time: 't', data: item.data })}\n`).join('')
        let written = 0
        for (const cut of [...cuts.toSorted((a, b) => a - b), text.length]) {
          const end = Math.min(cut, text.length)
          if (end <= written) continue
          appendFileSync(file, text.slice(written, end))
          written = end
          store().list()
        }
        const incremental = rowsOf(store()).find((row) => row.id === id)
        rmSync(tree.path('sessions/.list-index.json'))
        expect(rowsOf(store()).find((row) => row.id === id)).toEqual(incremental)
      }),
      { numRuns: 40 },
    )
  })
})
