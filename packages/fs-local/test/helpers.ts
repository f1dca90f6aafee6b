// Test helpers for fs-local: deterministic failure injection without mocking node:fs.
import { readdirSync } from 'node:fs'

/**
 * A stand-in signal whose `aborted` turns true once a `*.tmp` file exists in `dir`, i.e. right
 * after the atomic writer wrote its temp file and before the rename. With `onTemp`, it runs that
 * callback instead (for example to change the target behind the writer's back) and stays false.
 */
export function abortWhenTempExists(dir: string, onTemp?: () => void): AbortSignal {
  const signal = new AbortController().signal
  Object.defineProperty(signal, 'aborted', {
    get() {
      const temp = readdirSync(dir).some((name) => name.endsWith('.tmp'))
      if (temp && onTemp !== undefined) {
        onTemp()
        return false
      }
      return temp
    },
  })
  return signal
}

/** Awaits a promise that must reject with an `Error` and returns that error. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  )
  if (!(outcome instanceof Error)) throw new Error(`expected a rejection with an Error, got ${String(outcome)}`)
  return outcome
}
