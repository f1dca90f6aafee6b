// The step record: which touches may share examinations (top-level read-only tools with read
// touches, in the same open step, with no tool that may change files in flight), and which
// recorded examinations discovery may reuse (nothing unavailable; a skipped read only while the
// model still has that file).
import type { ToolExecution, TouchedPath } from '@dsh/contracts'
import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../src/config.ts'
import { discover, type PassOptions } from '../src/discovery.ts'
import { StepShare } from '../src/step-share.ts'
import { VersionMemo } from '../src/version-memo.ts'
import { FakeFileSystem } from './support/fake-fs.ts'
import { FakeSession } from './support/rig.ts'

const reads: TouchedPath[] = [{ path: '/repo/a.ts', kind: 'read' }]

function execution(name: string, extra: Partial<ToolExecution> = {}): ToolExecution {
  return { callId: name, name, arguments: {}, signal: new AbortController().signal, token: Symbol(name), ...extra }
}

function openSession(): FakeSession {
  const session = new FakeSession('/repo')
  session.append('step/start', { turn: 1, step: 1 })
  return session
}

describe('StepShare', () => {
  it('shares one record between the read touches of an open step, and starts over in the next', () => {
    const share = new StepShare()
    const session = openSession()
    const record = share.forTouch(session, execution('read'), reads)
    expect(record).toBeDefined()
    expect(share.forTouch(session, execution('read'), reads)).toBe(record)
    share.starting(execution('grep'))
    share.finished(execution('grep'))
    expect(share.forTouch(session, execution('read'), reads)).toBe(record)
    session.append('step/end', { turn: 1, step: 1 })
    expect(share.forTouch(session, execution('read'), reads)).toBeUndefined()
    session.append('step/start', { turn: 1, step: 2 })
    expect(share.forTouch(session, execution('read'), reads)).not.toBe(record)
  })

  it('suspends sharing while a tool that may change files runs, and drops the record', () => {
    const share = new StepShare()
    const session = openSession()
    const record = share.forTouch(session, execution('read'), reads)
    const bash = execution('bash')
    share.starting(bash)
    expect(share.forTouch(session, execution('read'), reads)).toBeUndefined()
    share.finished(bash)
    const after = share.forTouch(session, execution('read'), reads)
    expect(after).toBeDefined()
    expect(after).not.toBe(record)
    // A result that never arrives does not suspend sharing beyond its step.
    share.starting(execution('run_code'))
    share.stepEnded()
    session.append('step/end', { turn: 1, step: 1 })
    session.append('step/start', { turn: 1, step: 2 })
    expect(share.forTouch(session, execution('read'), reads)).toBeDefined()
  })

  it('never shares for writes, edits or nested sub-dispatches, and drops the record for them', () => {
    const share = new StepShare()
    const session = openSession()
    const record = share.forTouch(session, execution('read'), reads)
    expect(share.forTouch(session, execution('read', { parent: Symbol('run_code') }), reads)).toBeUndefined()
    expect(share.forTouch(session, execution('read'), reads)).not.toBe(record)
    expect(share.forTouch(session, execution('read'), [{ path: '/repo/a.ts', kind: 'write' }])).toBeUndefined()
    expect(share.forTouch(session, execution('edit'), [{ path: '/repo/a.ts', kind: 'read' }])).toBeUndefined()
  })
})

describe('discovery with a shared record', () => {
  const config = resolveConfig({ maxBytes: 65536, dshHome: '/home/user/.dsh' }, { env: {}, home: '/home/user' })
  const plan = { config, root: '/repo', dshHome: '/home/user/.dsh', trustedRoots: { fixed: ['/repo', '/home/user/.dsh'], extra: () => [] } }

  async function twice(knownAtSecond: boolean) {
    const fs = new FakeFileSystem({ '/repo/.git/HEAD': 'x', '/repo/a/AGENTS.md': 'A.' })
    const shared = new Map()
    const dirs = [{ abs: '/repo/a', rel: 'a' }]
    let digest: string | undefined
    const memo = new VersionMemo(0)
    const pass = (known: boolean): PassOptions => ({ fs, memo, directoryVersions: true, now: () => 0, knownDigest: () => (known ? digest : undefined), shared })
    const first = await discover(plan, pass(false), dirs, false)
    const [observation] = first.observations
    digest = observation?.state === 'present' ? observation.digest : undefined
    // The model has the file now: this examination skips the read and is recorded without content.
    shared.clear()
    const skipped = (await discover(plan, pass(true), dirs, false)).observations[0]
    expect(skipped?.state === 'present' && skipped.content).toBeUndefined()
    const before = fs.calls.length
    const again = await discover(plan, pass(knownAtSecond), dirs, false)
    return { calls: fs.calls.slice(before), observations: again.observations }
  }

  it('reuses an examination without any fs call while the model still has what it skipped', async () => {
    const { calls, observations } = await twice(true)
    expect(calls).toEqual([])
    expect(observations).toMatchObject([{ state: 'present', path: 'a/AGENTS.md' }, { state: 'absent' }])
  })

  it('re-examines when a skipped file is no longer known to the model, so its content can be offered', async () => {
    const { calls, observations } = await twice(false)
    expect(calls.map((c) => c.method)).toContain('streamText')
    expect(observations[0]).toMatchObject({ state: 'present', content: 'A.' })
  })

  it('retries an examination that found something unavailable', async () => {
    const fs = new FakeFileSystem({ '/repo/.git/HEAD': 'x', '/repo/a/AGENTS.md': 'A.' })
    fs.faults.failLstat.add('/repo/a/AGENTS.md')
    const shared = new Map()
    const pass: PassOptions = { fs, memo: undefined, directoryVersions: true, now: () => 0, shared }
    expect((await discover(plan, pass, [{ abs: '/repo/a', rel: 'a' }], false)).observations[0]).toMatchObject({ state: 'unavailable' })
    fs.faults.failLstat.clear()
    expect((await discover(plan, pass, [{ abs: '/repo/a', rel: 'a' }], false)).observations[0]).toMatchObject({ state: 'present', content: 'A.' })
  })
})
