/**
 * Serialises the passes of one session: a pass reads effective state, probes, and records what
 * it produced before the next pass starts, so two touches never both add the same scope.
 */

/** A keyed mutex built from promise chains. */
export class SessionLock {
  readonly #tails = new Map<string, Promise<unknown>>()

  /** Runs `task` after every earlier task of `key` settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve()
    const result = previous.then(task, task)
    const tail = result.then(
      () => undefined,
      () => undefined,
    )
    this.#tails.set(key, tail)
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key)
    })
    return result
  }
}
