/**
 * One registered namespace inside the store: its schema and base, the last good value, its
 * watchers, and the last problem reported for it (so a still-invalid section is logged once, not on
 * every unrelated reload).
 */
import { isDeepStrictEqual } from 'node:util'
import type { ZodType, z } from 'zod'
import type { SettingsLogger } from './types.ts'

/** Listener signature of `SettingsScope.watch`. */
export type Listener<T> = (next: T, previous: T) => void

/** State of one namespace. */
export class Registration<S extends ZodType = ZodType> {
  private value: z.infer<S>
  private readonly listeners = new Set<Listener<z.infer<S>>>()
  private reportedProblem: string | undefined
  private isDisposed = false

  constructor(
    /** Kebab-case namespace (top-level key of the file). */
    readonly namespace: string,
    /** Validates the merged section. */
    readonly schema: S,
    /** Composition-config layer under the file section. */
    readonly base: Partial<z.infer<S>> | undefined,
    initial: z.infer<S>,
    /** Problem already reported while computing `initial`, if any. */
    initialProblem: string | undefined,
    private readonly logger: SettingsLogger,
  ) {
    this.value = initial
    this.reportedProblem = initialProblem
  }

  /** The last good value. */
  get current(): z.infer<S> {
    return this.value
  }

  /** True after `dispose`. */
  get disposed(): boolean {
    return this.isDisposed
  }

  /** Adopts a valid value; notifies watchers only when it differs (deep compare) from the current one. */
  accept(next: z.infer<S>): void {
    this.reportedProblem = undefined
    const previous = this.value
    if (isDeepStrictEqual(previous, next)) return
    this.value = next
    // A snapshot: a listener added while notifying waits for the next change.
    for (const listener of Array.from(this.listeners)) {
      try {
        listener(next, previous)
      } catch (error) {
        // Swallowed after logging: one faulty watcher must not starve the others or the store.
        this.logger(`settings: a watcher of ${this.namespace} threw: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }

  /** Records `problem`; true when it was not the problem reported last (so it should be logged). */
  reject(problem: string): boolean {
    if (this.reportedProblem === problem) return false
    this.reportedProblem = problem
    return true
  }

  /** Adds a watcher; returns its remover. */
  watch(listener: Listener<z.infer<S>>): () => void {
    if (this.isDisposed) return () => {}
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  /** Drops every watcher and marks the registration dead. */
  dispose(): void {
    this.isDisposed = true
    this.listeners.clear()
  }
}
