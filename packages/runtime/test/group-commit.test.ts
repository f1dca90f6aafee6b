// Group commit of session flushes as a state machine: requests never wait for each other, one
// flush serves every request made while another ran, and a waiter is released only by a flush
// that started after its request.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { GroupCommit } from '../src/group-commit.ts'

/** A flush the test completes by hand, with the request count it was started at. */
interface Flush {
  readonly startedAt: number
  readonly done: (error: Error | null) => void
}

type Step = { readonly kind: 'request' } | { readonly kind: 'wait' } | { readonly kind: 'complete' } | { readonly kind: 'sync' }
const step: fc.Arbitrary<Step> = fc.constantFrom<Step>({ kind: 'request' }, { kind: 'wait' }, { kind: 'complete' }, { kind: 'sync' })

describe('GroupCommit', () => {
  it('releases each waiter only after a flush that covers its request, with at most one flush running', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const running: Flush[] = []
        let requests = 0
        let flushes = 0
        let coveredUpTo = 0
        const commits = new GroupCommit(
          (done) => {
            flushes += 1
            running.push({ startedAt: requests, done })
          },
          (error) => error,
        )
        const waiters: { readonly after: number; released: boolean }[] = []
        for (const { kind } of steps) {
          if (kind === 'request') {
            requests += 1
            commits.request()
          } else if (kind === 'wait') {
            const waiter = { after: requests, released: false }
            waiters.push(waiter)
            void commits.durable().then(() => (waiter.released = true))
          } else if (kind === 'complete') {
            const flush = running.shift()
            if (flush !== undefined) {
              coveredUpTo = Math.max(coveredUpTo, flush.startedAt)
              flush.done(null)
            }
          } else {
            coveredUpTo = requests
            commits.satisfied()
          }
          await Promise.resolve()
          expect(running.length).toBeLessThanOrEqual(1)
          expect(flushes).toBeLessThanOrEqual(requests)
          for (const waiter of waiters) expect(waiter.released).toBe(waiter.after <= coveredUpTo)
        }
        // Completing whatever runs ends with every request covered by at most one more flush.
        for (let guard = 0; running.length > 0 && guard < 3; guard++) {
          const flush = running.shift()
          coveredUpTo = Math.max(coveredUpTo, flush?.startedAt ?? 0)
          flush?.done(null)
        }
        await Promise.resolve()
        expect(coveredUpTo).toBe(requests)
        expect(commits.pending).toBe(false)
      }),
    )
  })

  it('a failed flush rejects its waiters and every later one, and starts no more flushes', async () => {
    let started = 0
    const flushes: ((error: Error | null) => void)[] = []
    const commits = new GroupCommit(
      (done) => {
        started += 1
        flushes.push(done)
      },
      (error) => new Error(`wrapped: ${error.message}`),
    )
    commits.request()
    const first = commits.durable()
    commits.request()
    flushes.shift()?.(new Error('EIO'))
    await expect(first).rejects.toThrow('wrapped: EIO')
    await expect(commits.durable()).rejects.toThrow('wrapped: EIO')
    commits.request()
    expect(started).toBe(1)
  })

  it('runs the idle callback after the running flush, at once when none runs', () => {
    const flushes: ((error: Error | null) => void)[] = []
    const commits = new GroupCommit((done) => flushes.push(done), (error) => error)
    const order: string[] = []
    commits.whenIdle(() => order.push('idle at once'))
    commits.request()
    commits.whenIdle(() => order.push('idle after the flush'))
    expect(order).toEqual(['idle at once'])
    flushes.shift()?.(null)
    expect(order).toEqual(['idle at once', 'idle after the flush'])
  })
})
