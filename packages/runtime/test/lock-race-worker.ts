// A process of the lock stress test: on each `race` message it takes the session lock (retrying
// while busy), proves in a shared file that it is alone inside, releases, and answers.
// Run with `node --import tsx`; driven over IPC by session-lock.test.ts.
import { appendFileSync } from 'node:fs'
import { isDshError } from '../src/errors.ts'
import { lockSession } from '../src/session-lock.ts'

interface Race {
  readonly round: number
  readonly directory: string
  readonly sessionId: string
  /** Append-only file of `+ PID` / `- PID` lines around each critical section. */
  readonly shared: string
}

const pause = new Int32Array(new SharedArrayBuffer(4))
const sleep = (ms: number): void => void Atomics.wait(pause, 0, 0, ms)

async function race(message: Race): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    let release: (() => void) | undefined
    try {
      release = lockSession({ directory: message.directory, sessionId: message.sessionId })
    } catch (error) {
      if (!isDshError(error) || error.code !== 'SESSION_BUSY') throw error
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2))
      continue
    }
    appendFileSync(message.shared, `+ ${process.pid}\n`)
    sleep(Math.random())
    appendFileSync(message.shared, `- ${process.pid}\n`)
    release()
    return attempt
  }
}

process.on('message', (message: Race) => {
  race(message).then(
    (attempts) => process.send?.({ round: message.round, attempts }),
    (error: unknown) => process.send?.({ round: message.round, error: String(error) }),
  )
})
process.send?.({ ready: true })
