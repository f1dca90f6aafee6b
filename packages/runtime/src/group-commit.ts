/**
 * Group commit of one file's flushes. `request()` starts a flush on the thread pool, or, while one
 * runs, notes that another is needed when it ends: any number of requests made during one flush
 * cost one more flush, and none of them blocks the caller. `durable()` resolves once every flush
 * requested before the call has completed, and rejects with the failure once a flush failed
 * (later requests then do nothing). `satisfied()` records that a synchronous flush covered
 * everything requested so far.
 */

/** Starts one flush; calls `done` once with the error, or `null` when it completed. */
export type StartFlush = (done: (error: Error | null) => void) => void

interface Waiter {
  readonly target: number
  readonly resolve: () => void
  readonly reject: (error: Error) => void
}

/** The flushes of one file. */
export class GroupCommit {
  readonly #start: StartFlush
  readonly #onFailure: (error: Error) => Error
  /** Requests made so far, and how many of them a completed flush covers. */
  #requested = 0
  #completed = 0
  #running = false
  #failure: Error | undefined
  #waiters: Waiter[] = []
  #idle: (() => void)[] = []

  /** `onFailure` turns a flush error into the error every waiter gets (and records it). */
  constructor(start: StartFlush, onFailure: (error: Error) => Error) {
    this.#start = start
    this.#onFailure = onFailure
  }

  /** True while a requested flush has not completed. */
  get pending(): boolean {
    return this.#requested > this.#completed
  }

  /** Asks for a flush of everything written so far. */
  request(): void {
    if (this.#failure !== undefined) return
    this.#requested += 1
    if (!this.#running) this.#run()
  }

  /** Resolves when every flush requested before this call has completed. */
  durable(): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure)
    const target = this.#requested
    if (this.#completed >= target) return Promise.resolve()
    return new Promise((resolve, reject) => this.#waiters.push({ target, resolve, reject }))
  }

  /** A synchronous flush covered every request so far. */
  satisfied(): void {
    this.#settle(this.#requested)
  }

  /** Runs `after` once no flush is running (at once when none is): the descriptor may be closed then. */
  whenIdle(after: () => void): void {
    if (this.#running) this.#idle.push(after)
    else after()
  }

  #run(): void {
    const target = this.#requested
    this.#running = true
    this.#start((error) => {
      this.#running = false
      if (error === null) {
        this.#settle(target)
        if (this.pending && this.#failure === undefined) this.#run()
      } else {
        this.#fail(this.#onFailure(error))
      }
      if (!this.#running) for (const after of this.#idle.splice(0)) after()
    })
  }

  #settle(target: number): void {
    if (target > this.#completed) this.#completed = target
    const waiting = this.#waiters
    this.#waiters = []
    for (const waiter of waiting) {
      if (waiter.target <= this.#completed) waiter.resolve()
      else this.#waiters.push(waiter)
    }
  }

  #fail(failure: Error): void {
    this.#failure = failure
    for (const waiter of this.#waiters.splice(0)) waiter.reject(failure)
  }
}
