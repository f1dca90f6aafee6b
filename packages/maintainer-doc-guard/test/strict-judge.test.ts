// Strict on-topic mode: the judge at turn end steers one correction for an off-topic answer,
// lets on-topic answers and every judge failure end the turn, and costs nothing while off.
import { afterEach, describe, expect, it } from 'vitest'
import { createScriptedProvider } from '@dsh/llm-scripted'
import type { ChatRequestBody } from '@dsh/contracts'
import { judgeModelOf, parseVerdict } from '../src/strict-judge.ts'
import { lastMessage, rig, type Rig } from './support/rig.ts'

let r: Rig | undefined
afterEach(async () => {
  await r?.dispose()
  r = undefined
})

function judge(replies: readonly string[], log: ChatRequestBody[] = []) {
  return judgeModelOf(createScriptedProvider({ responses: replies.map((text) => ({ text })) }), (body) => log.push(body))
}

describe('strict judge', () => {
  it('parses verdicts and fails open on anything unclear', () => {
    expect(parseVerdict('ONTOPIC')).toEqual({ onTopic: true })
    expect(parseVerdict('OFFTOPIC: a status report, no number')).toEqual({ onTopic: false, reason: 'a status report, no number' })
    expect(parseVerdict('offtopic')).toEqual({ onTopic: false, reason: 'no reason given' })
    expect(parseVerdict('I think it is fine')).toEqual({ onTopic: true })
  })

  it('keeps an off-topic turn going with one correction, then lets it end without judging again', async () => {
    const asked: ChatRequestBody[] = []
    r = await rig({}, { config: { strictOnTopic: true }, hooks: { judge: judge(['OFFTOPIC: reports progress instead of the count', 'ONTOPIC'], asked) } })
    const agent = await r.start([{ text: 'I looked at the files.' }, { text: 'There are 3 files.' }])
    const result = await agent.prompt('How many files are there?')
    expect(result.finalText).toBe('There are 3 files.')
    expect(lastMessage(r.requests[1])).toBe(
      'maintainer-doc-guard: your last message was judged off-topic for the instruction you are answering (reports progress instead of the count), so the turn was not closed. Answer the instruction directly now; the previous message did not answer it.',
    )
    expect(asked[0]?.messages[1]?.content).toBe('Instruction:\nHow many files are there?\n\nFinal answer:\nI looked at the files.')
    expect(asked).toHaveLength(1)
    expect(r.guard.counters.snapshot().counts).toMatchObject({ judgeOffTopic: 1, judgeSteered: 1, judgeOnTopic: 0 })
  })

  it('steers at most once per turn and lets the turn end when the judge fails', async () => {
    r = await rig({}, { config: { strictOnTopic: true }, hooks: { judge: judge(['OFFTOPIC: no', 'OFFTOPIC: still no']) } })
    const agent = await r.start([{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }])
    expect((await agent.prompt('q')).finalText).toBe('b')
    expect((await agent.prompt('q2')).finalText).toBe('d')
    expect(r.guard.counters.snapshot().counts).toMatchObject({ judgeSteered: 2, judgeFailed: 0 })
    const failing = await rig({}, { config: { strictOnTopic: true }, hooks: { judge: judge([]) } })
    try {
      const other = await failing.start([{ text: 'x' }])
      expect((await other.prompt('q')).reason).toBe('completed')
      expect(failing.guard.counters.snapshot().counts['judgeFailed']).toBe(1)
    } finally {
      await failing.dispose()
    }
  })

  it('does not judge while strict mode is off', async () => {
    const asked: ChatRequestBody[] = []
    r = await rig({}, { hooks: { judge: judge(['OFFTOPIC: x'], asked) } })
    const agent = await r.start([{ text: 'a' }])
    await agent.prompt('q')
    expect(asked).toEqual([])
  })
})
