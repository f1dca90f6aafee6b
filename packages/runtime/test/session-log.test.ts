// Session log loading: torn final lines, malformed lines (JSON, UTF-8, payloads), byte offsets,
// empty files, surface replacement.
import { appendFileSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import * as fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import type { SurfaceOp } from '@dsh/contracts'
import { tempTree, type TempTree } from '@dsh/testkit'
import { computeSurface, createUserMessage, SessionStore, type Session } from '../src/index.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

function store(warnings: string[] = []) {
  return new SessionStore({ directory: tree.path('sessions'), clock: () => new Date('2026-01-02T03:04:05Z'), warn: (line) => warnings.push(line) })
}

const say = (text: string) => ({ message: createUserMessage({ text, source: { kind: 'user' } }) })

/** A closed session with two events; returns its id and file. */
async function twoEvents(): Promise<{ session: Session; file: string }> {
  tree = await tempTree()
  const session = store().create({ cwd: tree.root })
  session.append('turn/start', { turn: 1 })
  session.append('turn/end', { turn: 1, reason: 'completed' })
  session.close()
  return { session, file: store().fileOf(session.id) }
}

function replaceLine(file: string, index: number, line: string | Buffer): void {
  const lines = readFileSync(file).toString('latin1').split('\n')
  lines[index] = Buffer.isBuffer(line) ? line.toString('latin1') : Buffer.from(line).toString('latin1')
  writeFileSync(file, Buffer.from(lines.join('\n'), 'latin1'))
}

describe('session log', () => {
  it('drops a torn final line with a warning and keeps everything before it', async () => {
    const { session, file } = await twoEvents()
    appendFileSync(file, '{"type":"turn/start","seq":3,"ti')
    const warnings: string[] = []
    const loaded = store(warnings).load(session.id)
    expect(loaded.events.map((e) => e.type)).toEqual(['turn/start', 'turn/end'])
    expect(warnings).toEqual([`${file}:4: dropped a torn final line (32 bytes) left by an interrupted write`])
    expect(readFileSync(file, 'utf8')).toContain('"seq":3,"ti')
    const reopened = store().open(session.id)
    reopened.append('turn/start', { turn: 2 })
    reopened.close()
    expect(store().load(session.id).events.map((e) => e.seq)).toEqual([1, 2, 3])
  })

  it('a torn final line cut inside a multi-byte character is dropped by its byte length, never padded', async () => {
    const { session, file } = await twoEvents()
    const whole = Buffer.from(`${JSON.stringify({ type: 'user/message', seq: 3, time: 't', data: say('héllo wörld ✓') })}\n`)
    const cut = whole.subarray(0, whole.indexOf(Buffer.from('✓')) + 1)
    appendFileSync(file, cut)
    const sizeBefore = statSync(file).size
    const warnings: string[] = []
    const reopened = store(warnings).open(session.id)
    expect(warnings).toEqual([`${file}:4: dropped a torn final line (${cut.length} bytes) left by an interrupted write`])
    expect(statSync(file).size).toBe(sizeBefore - cut.length)
    reopened.append('user/message', say('ünïcode again'), { surfaceOp: 'append' })
    reopened.close()
    expect(readFileSync(file).includes(0)).toBe(false)
    expect(store().load(session.id).events.map((e) => e.seq)).toEqual([1, 2, 3])
  })

  it('a line that is not valid UTF-8 is malformed (file:line), and neither load nor open changes the file', async () => {
    const { session, file } = await twoEvents()
    const line = Buffer.from(JSON.stringify({ type: 'turn/start', seq: 1, time: 't', data: { turn: 1 } }))
    line[line.indexOf('t', 10)] = 0xff
    replaceLine(file, 1, line)
    const before = readFileSync(file)
    expect(() => store().load(session.id)).toThrow(`${file}:2: not valid UTF-8`)
    expect(() => store().open(session.id)).toThrow(`${file}:2: not valid UTF-8`)
    expect(readFileSync(file).equals(before)).toBe(true)
  })

  it('a line longer than any session line (a foreign file) is refused by its line number, before it is held whole', async () => {
    const { session, file } = await twoEvents()
    const size = statSync(file).size
    // 300 MiB of zeros without a newline (sparse: no disk is used), then a newline.
    truncateSync(file, size + 300 * 1024 * 1024)
    appendFileSync(file, '\n')
    const refusal = `${file}:4: a line longer than 256 MiB (no session line is that long)`
    expect(() => store().load(session.id)).toThrow(refusal)
    expect(() => store().open(session.id)).toThrow(refusal)
    expect(statSync(file).size).toBe(size + 300 * 1024 * 1024 + 1)
  })

  it('a malformed line in the middle is an error naming the file and line, and nothing is rewritten', async () => {
    const { session, file } = await twoEvents()
    replaceLine(file, 1, '{not json')
    const before = readFileSync(file, 'utf8')
    expect(() => store().open(session.id)).toThrow(`${file}:2: invalid JSON`)
    expect(readFileSync(file, 'utf8')).toBe(before)
  })

  it.each([
    ['a user/message whose content is a string', { type: 'user/message', data: { message: { id: 'm', role: 'user', content: 'hi', source: { kind: 'user' } } } }, 'invalid user/message event (data.message.content: expected array, got "hi")'],
    ['a tool/result without callId', { type: 'tool/result', data: { turn: 1, step: 1, message: { id: 'r', role: 'tool', toolName: 'read', isError: false, content: [], source: { kind: 'tool' } } } }, 'invalid tool/result event (data.message.callId: missing (expected string))'],
    ['an inbox splice without removedIds', { type: 'agent/inbox/spliced', data: { target: 'next-turn', start: 0, inserted: [] } }, 'invalid agent/inbox/spliced event (data.removedIds: missing (expected array))'],
    ['a message with an unknown source kind', { type: 'user/message', data: { message: { id: 'm', role: 'user', content: [], source: { kind: 'alien' } } } }, 'invalid user/message event (data.message.source.kind: expected one of user, plugin, workspace-instructions, compaction, delegation, model, tool, got "alien")'],
    ['a tool/permission event with an unknown mode', { type: 'tool/permission', data: { callId: 'c', tool: 'bash', decision: 'allow', by: 'mode', mode: 'yolo' } }, 'invalid tool/permission event (data.mode: expected one of read-only, ask, auto-edit, full-auto, danger-full-access, got "yolo")'],
    ['an assistant tool call without arguments', { type: 'assistant/message', data: { turn: 1, step: 1, message: { id: 'a', role: 'assistant', content: [{ type: 'tool-call', callId: 'c', name: 'read' }], source: { kind: 'model' } } } }, 'invalid assistant/message event (data.message.content.0.arguments: missing (expected string))'],
  ])('%s is a FILE:LINE error on load and on resume, before anything is appended', async (_name, event, problem) => {
    const { session, file } = await twoEvents()
    appendFileSync(file, `${JSON.stringify({ ...event, seq: 3, time: 't' })}\n`)
    const before = readFileSync(file, 'utf8')
    expect(() => store().load(session.id)).toThrow(`${file}:4: ${problem}`)
    expect(() => store().open(session.id)).toThrow(`${file}:4: ${problem}`)
    expect(readFileSync(file, 'utf8')).toBe(before)
  })

  it.each([
    ['an unknown surface operation', { type: 'turn/start', seq: 3, time: 't', data: { turn: 2 }, surfaceOp: 'prepend' }, 'not a session event (surfaceOp: expected "append" or { op: "replace", start, end, reinstate? }, got "prepend")'],
    ['a fractional seq', { type: 'turn/start', seq: 2.5, time: 't', data: { turn: 2 } }, 'not a session event (seq: expected integer >= 0, got number)'],
    ['a line without a type', { seq: 3, time: 't', data: {} }, 'not a session event (type: missing (expected string))'],
    ['an array instead of an event', [1, 2], 'not a session event (value: expected object, got array)'],
  ])('%s is a malformed envelope naming the line', async (_name, line, problem) => {
    const { session, file } = await twoEvents()
    appendFileSync(file, `${JSON.stringify(line)}\n`)
    expect(() => store().load(session.id)).toThrow(`${file}:4: ${problem}`)
  })

  it('event types the core does not own are checked for their envelope only', async () => {
    const { session, file } = await twoEvents()
    appendFileSync(file, `${JSON.stringify({ type: 'some-plugin/state', seq: 3, time: 't', data: 'anything' })}\n`)
    expect(store().load(session.id).events.at(-1)).toEqual({ type: 'some-plugin/state', seq: 3, time: 't', data: 'anything' })
  })

  it('a complete last line without its newline gets one before the next append', async () => {
    const { session, file } = await twoEvents()
    truncateSync(file, statSync(file).size - 1)
    const warnings: string[] = []
    const reopened = store(warnings).open(session.id)
    expect(warnings).toEqual([])
    reopened.append('turn/start', { turn: 2 })
    reopened.close()
    expect(readFileSync(file, 'utf8')).not.toContain('\0')
    expect(store().load(session.id).events.map((e) => e.type)).toEqual(['turn/start', 'turn/end', 'turn/start'])
  })

  it('an empty session file is reported as empty (no header), not torn', async () => {
    tree = await tempTree({ 'sessions/20260102-empty.jsonl': '' })
    expect(() => store().load('20260102-empty')).toThrow(new RegExp(`^${tree.path('sessions/20260102-empty.jsonl')}: empty \\(no header\\)$`))
  })

  it('an impossible replace range is a malformed line naming the file and line', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    session.append('user/message', say('a'), { surfaceOp: 'append' })
    session.close()
    const file = store().fileOf(session.id)
    appendFileSync(file, `${JSON.stringify({ type: 'user/message', seq: 2, time: 't', data: say('r'), surfaceOp: { op: 'replace', start: 0, end: 9 } })}\n`)
    expect(() => store().load(session.id)).toThrow(`${file}:3: surface replace [0, 9) is outside a surface of 1 nodes`)
  })

  it('rejects ids that would escape the sessions directory', async () => {
    tree = await tempTree()
    expect(() => store().load('../etc/passwd')).toThrow(/invalid session id/)
  })

  it('a replace shadows the covered nodes and keeps them in the log', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    const a = session.append('user/message', say('a'), { surfaceOp: 'append' })
    const b = session.append('user/message', say('b'), { surfaceOp: 'append' })
    const c = session.append('user/message', say('c'), { surfaceOp: 'append' })
    const r = session.append('user/message', say('r'), { surfaceOp: { op: 'replace', start: 0, end: 2 }, sourceEventSeqs: [a.seq, b.seq] })
    expect(session.surface).toEqual([r.seq, c.seq])
    expect(session.replaceGeneration).toBe(1)
    expect(computeSurface(session.events).nodes).toEqual([r.seq, c.seq])
    expect(() => session.append('user/message', say('x'), { surfaceOp: { op: 'replace', start: 1, end: 9 } })).toThrow(RangeError)
    expect(session.events).toHaveLength(4)
    session.close()
    expect(store().load(session.id).surface).toEqual([r.seq, c.seq])
  })

  it('the in-place surface matches a copy-on-write model for any sequence of appends and replaces, live and after reload', async () => {
    tree = await tempTree()
    const op = fc.oneof(fc.constant<'append'>('append'), fc.tuple(fc.nat(6), fc.nat(6)).map(([a, b]) => ({ op: 'replace' as const, start: Math.min(a, b), end: Math.max(a, b) })))
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const session = store().create({ cwd: tree.root })
        let model: number[] = []
        let generation = 0
        for (const surfaceOp of ops as SurfaceOp[]) {
          const seq = (session.events.at(-1)?.seq ?? 0) + 1
          if (surfaceOp !== 'append' && surfaceOp.end > model.length) {
            expect(() => session.append('user/message', say('x'), { surfaceOp })).toThrow(RangeError)
            continue
          }
          session.append('user/message', say('x'), { surfaceOp })
          model = surfaceOp === 'append' ? [...model, seq] : [...model.slice(0, surfaceOp.start), seq, ...model.slice(surfaceOp.end)]
          if (surfaceOp !== 'append') generation += 1
        }
        expect(session.surface).toEqual(model)
        expect(session.replaceGeneration).toBe(generation)
        session.close()
        const loaded = store().load(session.id)
        expect([loaded.surface, loaded.replaceGeneration]).toEqual([model, generation])
      }),
      { numRuns: 60 },
    )
  })

  it('a file larger than the read buffer, with lines across its edges and one line longer than it, loads exactly', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    for (let index = 0; index < 3000; index++) session.append('user/message', say(`line ${index} ${'é'.repeat(index % 500)}`), { surfaceOp: 'append' })
    session.append('user/message', say('ü'.repeat(1_500_000)), { surfaceOp: 'append' })
    session.append('turn/start', { turn: 1 })
    session.close()
    const file = store().fileOf(session.id)
    expect(statSync(file).size).toBeGreaterThan(4 * 1024 * 1024)
    const loaded = store().load(session.id)
    expect(loaded.events).toEqual(session.events)
    expect(loaded.surface).toEqual(session.surface)
  })

  it('creating a session leaves exactly its file and its lock directory behind', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    session.close()
    expect(readdirSync(tree.path('sessions'))).toEqual(['.locks', `${session.id}.jsonl`])
    expect(readFileSync(store().fileOf(session.id), 'utf8')).toBe(`${JSON.stringify(session.header)}\n`)
  })
})
