// Touch pairing from the event stream: a read/write/edit call paired with its successful result
// by call id, per session (the same call id in two sessions does not mix), relative paths against
// the session's cwd, and the pending-call and pending-touch limits.
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '@dsh/contracts'
import { TouchTracker } from '../src/touch-tracker.ts'

let seq = 0
const call = (callId: string, name: string, args: unknown): SessionEvent => ({ type: 'tool/call', seq: ++seq, time: '', data: { turn: 1, step: 1, callId, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } })
const result = (callId: string, isError: boolean): SessionEvent => ({ type: 'tool/result', seq: ++seq, time: '', data: { turn: 1, step: 1, message: { id: 'm', role: 'tool', callId, toolName: 'read', isError, content: [], source: { kind: 'tool' } } } })
const limits = { maxPendingCalls: 2, maxPendingTouches: 3 }

function tracker(): TouchTracker {
  const made = new TouchTracker()
  made.active = true
  return made
}

describe('touch pairing', () => {
  it('counts successful read, write and edit calls only, resolving relative paths against the cwd', () => {
    const touches = tracker()
    const feed = (events: SessionEvent[]) => events.forEach((event) => touches.observe(event, '/work/a', limits, () => undefined))
    feed([call('1', 'read', { file_path: 'src/x.ts' }), result('1', false)])
    feed([call('2', 'edit', { file_path: '/abs/y.ts', old_string: 'a', new_string: 'b' }), result('2', true)])
    feed([call('3', 'glob', { pattern: '*', path: '/abs' }), result('3', false)])
    feed([call('4', 'write', '{not json'), result('4', false)])
    feed([call('5', 'write', { file_path: '/abs/z.ts', content: '' }), result('5', false)])
    expect(touches.snapshot()).toEqual(['/work/a/src/x.ts', '/abs/z.ts'])
  })

  it('keeps sessions apart: the same call id in another tracker is another call', () => {
    const a = tracker()
    const b = tracker()
    a.observe(call('c1', 'read', { file_path: '/a/x' }), '/a', limits, () => undefined)
    b.observe(call('c1', 'read', { file_path: '/b/x' }), '/b', limits, () => undefined)
    b.observe(result('c1', false), '/b', limits, () => undefined)
    a.observe(result('c1', true), '/a', limits, () => undefined)
    expect([a.snapshot(), b.snapshot()]).toEqual([[], ['/b/x']])
  })

  it('ignores calls while the session has no roots', () => {
    const touches = new TouchTracker()
    touches.observe(call('1', 'read', { file_path: '/x' }), '/', limits, () => undefined)
    touches.active = true
    touches.observe(result('1', false), '/', limits, () => undefined)
    expect(touches.snapshot()).toEqual([])
  })

  it('stops at the limits and says which one was reached; consuming a snapshot keeps later touches', () => {
    const touches = tracker()
    const reached: string[] = []
    const feed = (event: SessionEvent) => touches.observe(event, '/', limits, (which) => reached.push(which))
    ;['1', '2', '3'].forEach((id) => feed(call(id, 'read', { file_path: `/f${id}` })))
    expect(reached).toEqual(['calls'])
    ;['1', '2'].forEach((id) => feed(result(id, false)))
    const snapshot = touches.snapshot()
    ;['4', '5', '6'].forEach((id) => {
      feed(call(id, 'read', { file_path: `/f${id}` }))
      feed(result(id, false))
    })
    expect(reached).toEqual(['calls', 'touches', 'touches'])
    touches.consume(snapshot)
    expect(touches.snapshot()).toEqual(['/f4'])
  })
})
