/**
 * Real-time waiting for tests that fake the clock. Such a test fakes `setTimeout` so that a time
 * limit of the code under test elapses only after the test has seen a process reach the point it
 * checks (a loaded machine may take longer than the limit just to start the process). Meanwhile
 * these helpers wait in real time, then drive the fake clock until the awaited outcome settles.
 */

// Captured when the testkit is imported, before any test fakes the timers.
const realSetTimeout = globalThis.setTimeout

/** Resolves after `ms` of real time, whether or not the clock is faked. */
export function realDelay(ms: number): Promise<void> {
  return new Promise((wake) => realSetTimeout(wake, ms))
}

/**
 * Polls `predicate` every 20 ms of real time until it holds (true) or `ms` passed (false). The
 * deadline is a hang guard, generous for a loaded machine; it never decides a passing case.
 */
export async function realWaitFor(predicate: () => boolean, ms = 20_000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!predicate()) {
    if (Date.now() > deadline) return false
    await realDelay(20)
  }
  return true
}

/**
 * Advances the faked clock by `stepMs` (through `advance`, e.g. `vi.advanceTimersByTime`) every
 * 10 ms of real time until `pending` settles, and returns it: the limits and grace periods it waits
 * on elapse in order, however slowly the processes involved run.
 */
export async function driveClock<T>(pending: Promise<T>, advance: (ms: number) => void, stepMs = 100): Promise<T> {
  const settled = pending.then(
    () => true,
    () => true,
  )
  while (!(await Promise.race([settled, realDelay(10).then(() => false)]))) advance(stepMs)
  return pending
}
