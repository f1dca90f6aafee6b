// Which skills a compaction took from the model, read off a log: only events a visible checkpoint
// replaced (directly or through an earlier checkpoint) count; a rewind, failed calls and calls
// visible again later drop nothing.
import { describe, expect, it } from 'vitest'
import type { SessionEvent, SessionView } from '@dsh/contracts'
import { droppedSkills, inUseSource } from '../src/in-use.ts'

const prompt = (seq: number): SessionEvent => ({ type: 'user/message', seq, time: '', data: { message: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text: 'go' }], source: { kind: 'user' } } } })
const skillCall = (seq: number, callId: string, args: string): SessionEvent => ({ type: 'assistant/message', seq, time: '', data: { message: { id: `a${seq}`, role: 'assistant', content: [{ type: 'tool-call', callId, name: 'skill', arguments: args }], source: { kind: 'model' } } } })
const result = (seq: number, callId: string, isError = false): SessionEvent => ({ type: 'tool/result', seq, time: '', data: { turn: 1, step: 1, message: { id: `t${seq}`, role: 'tool', callId, toolName: 'skill', isError, content: [{ type: 'text', text: 'Skill: x' }], source: { kind: 'tool' } } } })
const checkpoint = (seq: number, replaced: number[]): SessionEvent => ({ type: 'user/message', seq, time: '', sourceEventSeqs: replaced, data: { message: { id: `c${seq}`, role: 'user', content: [{ type: 'text', text: 'summary' }], source: { kind: 'compaction', checkpointId: `k${seq}`, summarizer: 'deterministic' } } } })
const carried = (seq: number, keys: string[]): SessionEvent => ({ type: 'user/message', seq, time: '', data: { message: { id: `i${seq}`, role: 'user', content: [{ type: 'text', text: 'in use' }], source: inUseSource(keys.map((key) => ({ key, arguments: '' }))) } } })

function view(events: SessionEvent[], surface: number[]): SessionView {
  return { header: { type: 'session', version: 1, id: 's', createdAt: '', cwd: '/', delegationDepth: 0 }, events, surface, replaceGeneration: 1, eventBySeq: (seq) => events.find((event) => event.seq === seq) }
}

const base = [prompt(1), skillCall(2, 'c1', '{"name":"deploy","arguments":"prod"}'), result(3, 'c1'), skillCall(4, 'c2', '{"name":"review"}'), result(5, 'c2', true)]

describe('skills a compaction dropped', () => {
  it('a checkpoint that replaced a successful call drops its skill, with its arguments; a failed call drops nothing', () => {
    expect(droppedSkills(view([...base, checkpoint(6, [1, 2, 3, 4, 5])], [6]))).toEqual([{ key: 'deploy', arguments: 'prod' }])
  })

  it('a rewind (events gone from the surface without a checkpoint) drops nothing', () => {
    expect(droppedSkills(view(base, [1]))).toEqual([])
  })

  it('a checkpoint that replaced an earlier checkpoint drops what that one replaced, and what an in-use message it replaced carried', () => {
    const events = [...base, checkpoint(6, [1, 2, 3, 4, 5]), carried(7, ['deploy', 'lint']), prompt(8), checkpoint(9, [6, 7, 8])]
    expect(droppedSkills(view(events, [9]))).toEqual([{ key: 'deploy', arguments: '' }, { key: 'lint', arguments: '' }])
    // While the in-use message is visible, nothing is dropped.
    expect(droppedSkills(view(events.slice(0, 7), [6, 7]))).toEqual([])
  })

  it('a skill a person invoked with /name is carried by the prompt after its event: dropped with it, kept while it is visible', () => {
    const invoked: SessionEvent = { type: 'skills/invoked', seq: 10, time: '', data: { version: 1, key: 'release', arguments: '1.2' } }
    const events = [invoked, prompt(11), checkpoint(12, [11])]
    expect(droppedSkills(view(events, [12]))).toEqual([{ key: 'release', arguments: '1.2' }])
    expect(droppedSkills(view([...events.slice(0, 2), checkpoint(12, [])], [11, 12]))).toEqual([])
    // An event of another version, or without its fields, invokes nothing.
    const odd: SessionEvent = { type: 'skills/invoked', seq: 10, time: '', data: { version: 2, key: 'release', arguments: '' } }
    expect(droppedSkills(view([odd, prompt(11), checkpoint(12, [11])], [12]))).toEqual([])
  })

  it('a skill called again after the compaction, and visible, is not dropped; arguments that do not parse are no call', () => {
    const events = [...base, checkpoint(6, [1, 2, 3, 4, 5]), skillCall(7, 'c3', '{"name":"deploy"}'), result(8, 'c3'), skillCall(9, 'c4', '{not json'), result(10, 'c4')]
    expect(droppedSkills(view(events, [6, 7, 8, 9, 10]))).toEqual([])
  })
})
