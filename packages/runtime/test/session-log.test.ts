// Session log loading: torn final lines, malformed middle lines, surface replacement.
import { appendFileSync, existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { computeSurface, SessionStore } from '../src/index.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

function store(warnings: string[] = []) {
  return new SessionStore({ directory: tree.path('sessions'), clock: () => new Date('2026-01-02T03:04:05Z'), warn: (line) => warnings.push(line) })
}

describe('session log', () => {
  it('drops a torn final line with a warning and keeps everything before it', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    session.append('turn/start', { turn: 1 })
    session.append('turn/end', { turn: 1, reason: 'completed' })
    session.close()
    const file = store().fileOf(session.id)
    appendFileSync(file, '{"type":"turn/start","seq":3,"ti')
    const warnings: string[] = []
    const loaded = store(warnings).load(session.id)
    expect(loaded.events.map((e) => e.type)).toEqual(['turn/start', 'turn/end'])
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(new RegExp(`${session.id}\\.jsonl:4: dropped a torn final line`))
    expect(readFileSync(file, 'utf8')).toContain('"seq":3,"ti')
    const reopened = store().open(session.id)
    reopened.append('turn/start', { turn: 2 })
    reopened.close()
    expect(store().load(session.id).events.map((e) => e.seq)).toEqual([1, 2, 3])
  })

  it('a malformed line in the middle is an error naming the file and line, and nothing is rewritten', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    session.append('turn/start', { turn: 1 })
    session.append('turn/end', { turn: 1, reason: 'completed' })
    session.close()
    const file = store().fileOf(session.id)
    const lines = readFileSync(file, 'utf8').split('\n')
    lines[1] = '{not json'
    writeFileSync(file, lines.join('\n'))
    const before = readFileSync(file, 'utf8')
    expect(() => store().open(session.id)).toThrow(`${file}:2: invalid JSON`)
    expect(readFileSync(file, 'utf8')).toBe(before)
  })

  it('a complete last line without its newline gets one before the next append', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    session.append('turn/start', { turn: 1 })
    session.close()
    const file = store().fileOf(session.id)
    truncateSync(file, statSync(file).size - 1)
    const warnings: string[] = []
    const reopened = store(warnings).open(session.id)
    expect(warnings).toEqual([])
    reopened.append('turn/end', { turn: 1, reason: 'completed' })
    reopened.close()
    expect(readFileSync(file, 'utf8')).not.toContain('\0')
    expect(store().load(session.id).events.map((e) => e.type)).toEqual(['turn/start', 'turn/end'])
  })

  it('an impossible replace range is a malformed line naming the file and line', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    session.append('user/message', { message: { id: 'a' } }, { surfaceOp: 'append' })
    session.close()
    const file = store().fileOf(session.id)
    appendFileSync(file, `${JSON.stringify({ type: 'user/message', seq: 2, time: 't', data: {}, surfaceOp: { op: 'replace', start: 0, end: 9 } })}\n`)
    expect(() => store().load(session.id)).toThrow(`${file}:3: surface replace [0, 9) is outside a surface of 1 nodes`)
  })

  it('one writer per session: a second open is refused until the first closes, and a crashed writer\'s lock is taken over', async () => {
    tree = await tempTree()
    const first = store().create({ cwd: tree.root })
    expect(() => store().open(first.id)).toThrow(new RegExp(`^session ${first.id} is open in this process; close it there first`))
    expect(store().load(first.id).id).toBe(first.id)
    first.close()
    const second = store().open(first.id)
    second.close()
    writeFileSync(tree.path(`sessions/${first.id}.lock`), '999999999\n')
    const third = store().open(first.id)
    third.append('turn/start', { turn: 1 })
    third.close()
    expect(existsSync(tree.path(`sessions/${first.id}.lock`))).toBe(false)
  })

  it('a lock left by an earlier process that had the same pid (a restarted container) is taken over', async () => {
    tree = await tempTree()
    const first = store().create({ cwd: tree.root })
    first.close()
    writeFileSync(tree.path(`sessions/${first.id}.lock`), `${process.pid} 1 an-old-token\n`)
    const reopened = store().open(first.id)
    expect(readFileSync(tree.path(`sessions/${first.id}.lock`), 'utf8')).not.toContain('an-old-token')
    reopened.close()
  })

  it('closing never removes a lock that another writer holds now', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    const lock = tree.path(`sessions/${session.id}.lock`)
    writeFileSync(lock, '12345 - someone-else\n')
    session.close()
    expect(readFileSync(lock, 'utf8')).toBe('12345 - someone-else\n')
  })

  it('rejects ids that would escape the sessions directory', async () => {
    tree = await tempTree()
    expect(() => store().load('../etc/passwd')).toThrow(/invalid session id/)
  })

  it('a replace shadows the covered nodes and keeps them in the log', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    const a = session.append('user/message', { message: { id: 'a' } }, { surfaceOp: 'append' })
    const b = session.append('assistant/message', { message: { id: 'b' } }, { surfaceOp: 'append' })
    const c = session.append('user/message', { message: { id: 'c' } }, { surfaceOp: 'append' })
    const r = session.append('user/message', { message: { id: 'r' } }, { surfaceOp: { op: 'replace', start: 0, end: 2 }, sourceEventSeqs: [a.seq, b.seq] })
    expect(session.surface).toEqual([r.seq, c.seq])
    expect(session.replaceGeneration).toBe(1)
    expect(computeSurface(session.events).nodes).toEqual([r.seq, c.seq])
    expect(() => session.append('user/message', {}, { surfaceOp: { op: 'replace', start: 1, end: 9 } })).toThrow(RangeError)
    session.close()
    expect(store().load(session.id).surface).toEqual([r.seq, c.seq])
  })

  it('lists sessions newest first with their first prompt and skips unreadable files with a warning', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    session.append('user/message', { message: { id: 'x', role: 'user', content: [{ type: 'text', text: 'hello there' }], source: { kind: 'user' } } }, { surfaceOp: 'append' })
    session.close()
    writeFileSync(tree.path('sessions/broken.jsonl'), 'nope\n')
    const warnings: string[] = []
    const rows = store(warnings).list()
    expect(rows.map((row) => [row.id, row.title])).toEqual([[session.id, 'hello there']])
    expect(warnings[0]).toMatch(/broken\.jsonl/)
  })
})
