// Appends are whole lines or nothing: short writes, a full disk, failed flushes and the size cap
// each leave a loadable file and a one-line error naming the file and the last intact event.
import { closeSync, openSync, readdirSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createUserMessage, nodeFileIo, SessionStore, type SessionFileIo } from '../src/index.ts'
import { SessionWriter } from '../src/session-writer.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

/** What the next matching write does: write only `bytes` of it, or write `bytes` and then throw `code`. */
interface Fault {
  readonly when: (text: string) => boolean
  readonly bytes: number
  readonly code?: 'ENOSPC' | 'EIO'
}

/** Real writes, except the first write matching a fault, which is cut short the way a filling disk cuts it. */
function faultyIo(faults: Fault[]): SessionFileIo & { readonly faults: Fault[] } {
  return {
    faults,
    fdatasyncSync: (fd) => nodeFileIo.fdatasyncSync(fd),
    fdatasync: (fd, done) => nodeFileIo.fdatasync(fd, done),
    writeSync: (fd, buffer, offset, length, position) => {
      const text = Buffer.from(buffer.subarray(offset, offset + length)).toString('utf8')
      const index = faults.findIndex((fault) => fault.when(text))
      const fault = faults[index]
      if (fault === undefined) return writeSync(fd, buffer, offset, length, position)
      faults.splice(index, 1)
      const written = fault.bytes === 0 ? 0 : writeSync(fd, buffer, offset, Math.min(fault.bytes, length), position)
      if (fault.code === undefined) return written
      const messages = { ENOSPC: 'no space left on device', EIO: 'i/o error' }
      throw Object.assign(new Error(`${fault.code}: ${messages[fault.code]}, write`), { code: fault.code, syscall: 'write' })
    },
  }
}

function store(io: SessionFileIo = nodeFileIo, maxBytes?: number) {
  return new SessionStore({ directory: tree.path('sessions'), clock: () => new Date('2026-01-02T03:04:05Z'), warn: () => undefined, io, ...(maxBytes === undefined ? {} : { maxBytes }) })
}

const say = (text: string) => ({ message: createUserMessage({ text, source: { kind: 'user' } }) })
const isPrompt = (needle: string) => (text: string) => text.includes('"type":"user/message"') && text.includes(needle)

/** Open file descriptors of this process. */
const handles = (): number => readdirSync('/proc/self/fd').length

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' }).toSorted()
}

describe('session writes', () => {
  it('a short write is cut back, refused from then on with one line naming the file and the last intact event, and the file still loads', async () => {
    tree = await tempTree()
    const io = faultyIo([{ when: isPrompt('second'), bytes: 20 }])
    const session = store(io).create({ cwd: tree.root })
    session.append('user/message', say('first'), { surfaceOp: 'append' })
    const file = store().fileOf(session.id)
    const sizeBefore = statSync(file).size
    const expected = new RegExp(`^cannot append to ${file}: short write \\(20 of \\d+ bytes; the disk may be full\\); the session is intact up to event 1$`)
    expect(() => session.append('user/message', say('second'), { surfaceOp: 'append' })).toThrow(expected)
    expect(statSync(file).size).toBe(sizeBefore)
    expect(() => session.append('turn/end', { turn: 1, reason: 'error' })).toThrow(expected)
    expect(() => session.append('user/message', say('third'), { surfaceOp: 'append' })).toThrow(expect.objectContaining({ code: 'SESSION_WRITE' }))
    expect(session.events.map((event) => event.seq)).toEqual([1])
    session.close()
    const reopened = store().open(session.id)
    expect(reopened.events.map((event) => event.seq)).toEqual([1])
    reopened.append('user/message', say('after space came back'), { surfaceOp: 'append' })
    reopened.close()
    expect(store().load(session.id).events.map((event) => event.seq)).toEqual([1, 2])
  })

  it('a full disk (part of the line written, then ENOSPC) says so in words and loses nothing before', async () => {
    tree = await tempTree()
    const io = faultyIo([{ when: isPrompt('big'), bytes: 7, code: 'ENOSPC' }])
    const session = store(io).create({ cwd: tree.root })
    session.append('turn/start', { turn: 1 })
    session.append('user/message', say('small'), { surfaceOp: 'append' })
    const file = store().fileOf(session.id)
    expect(() => session.append('user/message', say('big'), { surfaceOp: 'append' })).toThrow(`cannot append to ${file}: no space left on device; the session is intact up to event 2`)
    session.close()
    expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true)
    expect(store().load(session.id).events.map((event) => event.type)).toEqual(['turn/start', 'user/message'])
  })

  it('a failed flush refuses later appends and says what may not be on disk', async () => {
    tree = await tempTree()
    let failSync = false
    const io: SessionFileIo = {
      writeSync: nodeFileIo.writeSync,
      fdatasyncSync: (fd) => {
        if (failSync) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })
        nodeFileIo.fdatasyncSync(fd)
      },
      fdatasync: (fd, done) => nodeFileIo.fdatasync(fd, done),
    }
    const session = store(io).create({ cwd: tree.root })
    session.append('turn/start', { turn: 1 })
    failSync = true
    const file = store().fileOf(session.id)
    expect(() => session.sync()).toThrow(`cannot flush ${file} to disk: i/o error; events up to 1 are written but may not survive a power loss, and no more are appended`)
    expect(() => session.append('turn/end', { turn: 1, reason: 'completed' })).toThrow(/^cannot flush /)
    session.close()
  })

  it('a flush that fails on the thread pool fails its waiters and refuses later appends the same way', async () => {
    tree = await tempTree()
    let failFlush = false
    const io: SessionFileIo = {
      writeSync: nodeFileIo.writeSync,
      fdatasyncSync: nodeFileIo.fdatasyncSync,
      fdatasync: (fd, done) => (failFlush ? setImmediate(() => done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }))) : nodeFileIo.fdatasync(fd, done)),
    }
    const session = store(io).create({ cwd: tree.root })
    session.append('turn/start', { turn: 1 })
    session.flushSoon()
    await session.flushed()
    session.append('step/start', { turn: 1, step: 1 })
    failFlush = true
    session.flushSoon()
    const file = store().fileOf(session.id)
    const message = `cannot flush ${file} to disk: i/o error; events up to 2 are written but may not survive a power loss, and no more are appended`
    await expect(session.flushed()).rejects.toThrow(message)
    expect(() => session.append('step/end', { turn: 1, step: 1 })).toThrow(message)
    session.close()
    expect(store().load(session.id).events.map((event) => event.type)).toEqual(['turn/start', 'step/start'])
  })

  it('closing flushes synchronously what a background flush has not covered yet, and waits for it to close the file', async () => {
    tree = await tempTree()
    const held: ((error: Error | null) => void)[] = []
    let syncs = 0
    const io: SessionFileIo = {
      writeSync: nodeFileIo.writeSync,
      fdatasyncSync: (fd) => {
        syncs += 1
        nodeFileIo.fdatasyncSync(fd)
      },
      // A background flush that does not finish until the test lets it.
      fdatasync: (fd, done) => void held.push((error) => nodeFileIo.fdatasync(fd, (own) => done(error ?? own))),
    }
    const session = store(io).create({ cwd: tree.root })
    const created = syncs
    session.append('turn/start', { turn: 1 })
    session.flushSoon()
    const flushed = session.flushed()
    session.close()
    expect(syncs).toBe(created + 1)
    // The flush still running uses the descriptor: it completes, and only then is the file closed.
    held.shift()?.(null)
    await expect(flushed).resolves.toBeUndefined()
    expect(store().load(session.id).events.map((event) => event.type)).toEqual(['turn/start'])
  })

  it('creating a session on a full disk leaves no session file, no temp file and no lock of it', async () => {
    tree = await tempTree()
    const io = faultyIo([{ when: (text) => text.startsWith('{"type":"session"'), bytes: 10, code: 'ENOSPC' }])
    expect(() => store(io).create({ cwd: tree.root })).toThrow(new RegExp(`^cannot create session file ${tree.path('sessions')}/[^ ]+\\.jsonl: no space left on device; nothing was stored$`))
    expect(filesUnder(tree.path('sessions'))).toEqual(['.locks'])
  })

  it('a session file is never created over an existing one: the stored file stays as it was', async () => {
    tree = await tempTree({ 'sessions/': null })
    const file = tree.path('sessions/20260102-030405-taken.jsonl')
    writeFileSync(file, 'stored\n')
    const header = { type: 'session', version: 1, id: '20260102-030405-taken', createdAt: '2026-01-02T03:04:05.000Z', cwd: tree.root, delegationDepth: 0 } as const
    expect(() => SessionWriter.create({ file, io: nodeFileIo, maxBytes: 4096, release: () => undefined, header })).toThrow(`cannot create session file ${file}: file already exists; nothing was stored`)
    expect(readFileSync(file, 'utf8')).toBe('stored\n')
    expect(filesUnder(tree.path('sessions'))).toEqual(['20260102-030405-taken.jsonl'])
  })

  it('reopening a last line that lacks its newline on a full disk fails in one line, changes nothing, frees the lock and keeps no handle', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    session.append('user/message', say('first'), { surfaceOp: 'append' })
    session.close()
    const file = store().fileOf(session.id)
    const unterminated = readFileSync(file, 'utf8').trimEnd()
    writeFileSync(file, unterminated)
    const before = handles()
    const io = faultyIo([{ when: (text) => text === '\n', bytes: 0, code: 'ENOSPC' }])
    expect(() => store(io).open(session.id)).toThrow(`cannot append to ${file}: no space left on device; the session is intact up to event 1`)
    expect(handles()).toBe(before)
    expect(readFileSync(file, 'utf8')).toBe(unterminated)
    const reopened = store().open(session.id)
    reopened.append('turn/end', { turn: 1, reason: 'completed' })
    reopened.close()
    expect(store().load(session.id).events.map((event) => event.type)).toEqual(['user/message', 'turn/end'])
  })

  it('an append after close is refused and never reaches the descriptor number, which another file may have by then', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    session.append('turn/start', { turn: 1 })
    session.close()
    const other = tree.path('other.txt')
    writeFileSync(other, '')
    const handle = openSync(other, 'a')
    try {
      expect(() => session.append('turn/end', { turn: 1, reason: 'completed' })).toThrow(`cannot append to ${store().fileOf(session.id)}: the session was closed; the session is intact up to event 1`)
      expect(() => session.sync()).not.toThrow()
    } finally {
      closeSync(handle)
    }
    expect(readFileSync(other, 'utf8')).toBe('')
    expect(store().load(session.id).events.map((event) => event.type)).toEqual(['turn/start'])
  })

  it('a lock record that cannot be written leaves no temp lock file and no lock directory behind', async () => {
    tree = await tempTree()
    const io = faultyIo([{ when: (text) => text.startsWith(`${process.pid} `), bytes: 3, code: 'ENOSPC' }])
    expect(() => store(io).create({ cwd: tree.root })).toThrow(/^cannot lock session \S+ in \S+: no space left on device$/)
    expect(filesUnder(tree.path('sessions'))).toEqual(['.locks'])
  })

  it('a session never grows past its size cap: the crossing append is refused and the file stays loadable', async () => {
    tree = await tempTree()
    const cap = 4096
    const session = store(nodeFileIo, cap).create({ cwd: tree.root })
    const file = store().fileOf(session.id)
    let appended = 0
    let refusal: unknown
    try {
      for (;;) {
        session.append('user/message', say(`prompt number ${appended} ${'x'.repeat(200)}`), { surfaceOp: 'append' })
        appended += 1
      }
    } catch (error) {
      refusal = error
    }
    expect(refusal).toMatchObject({
      code: 'SESSION_TOO_LARGE',
      message: `cannot append to ${file}: it would pass the session size cap of 4096 bytes; the session is intact up to event ${appended}; continue in a new session (dsh run without --resume, or /new in dsh chat); dsh compact cannot make room: it adds a checkpoint that shortens what the model sees and never shrinks the file`,
    })
    expect(statSync(file).size).toBeLessThanOrEqual(cap)
    expect(() => session.append('turn/end', { turn: 1, reason: 'error' })).toThrow(/size cap/)
    session.close()
    expect(store().load(session.id).events).toHaveLength(appended)
  })
})
