// An ACP session's idle wait (the Notification hooks' idle_prompt, armed after each prompt): it
// fires once after its time, a new wait replaces the old one, and a prompt (stopWaiting) or the
// session's end cancels it. On a fake clock: no real waiting.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AcpSession } from '../src/index.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

const session = (): AcpSession => new AcpSession('20261207-000000-abcdef', [{ canonical: '/repo', spelled: '/repo' }])

describe('the idle wait of an ACP session', () => {
  it('fires once after its time; a second wait replaces the first', () => {
    const s = session()
    const heard: string[] = []
    s.waitForPerson(300, () => heard.push('first'))
    vi.advanceTimersByTime(299)
    expect(heard).toEqual([])
    s.waitForPerson(300, () => heard.push('second'))
    vi.advanceTimersByTime(10_000)
    expect(heard).toEqual(['second'])
  })

  it('a prompt or the end of the session cancels it', async () => {
    const prompted = session()
    const ended = session()
    const heard: string[] = []
    prompted.waitForPerson(300, () => heard.push('prompted'))
    ended.waitForPerson(300, () => heard.push('ended'))
    prompted.stopWaiting()
    await ended.end()
    vi.advanceTimersByTime(10_000)
    expect(heard).toEqual([])
  })
})
