/**
 * A writer waiting on a FIFO: the probe of "was this FIFO ever opened for reading?". The writer
 * blocks in open() until a reader opens the FIFO; once it is known to wait there, `tokenRead()`
 * opens the FIFO itself and gets the writer's token only when no reader opened it before (the
 * token would otherwise have gone to that reader or been dropped with the pipe, and this reader
 * finds no writer left and gives up after its bound).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'

/** x86-64 and arm64 numbers of open/openat, for kernels that hide wchan. */
const OPEN_SYSCALLS = new Set(['2', '257', '56'])

function waitsInOpen(pid: number): boolean {
  try {
    if (readFileSync(`/proc/${pid}/wchan`, 'utf8') === 'wait_for_partner') return true
    return OPEN_SYSCALLS.has(readFileSync(`/proc/${pid}/syscall`, 'utf8').split(' ')[0] ?? '')
  } catch {
    // The process is not there (yet, or any more): not waiting in open().
    return false
  }
}

/** A started writer on `fifo`, resolved once it waits in open(). */
export async function fifoWriter(fifo: string): Promise<{ readonly tokenRead: () => Promise<string>; readonly stop: () => void }> {
  const writer: ChildProcess = spawn('sh', ['-c', 'exec 3>"$0"; echo token >&3', fifo], { stdio: 'ignore' })
  const pid = writer.pid ?? 0
  const deadline = Date.now() + 30_000
  while (!waitsInOpen(pid)) {
    if (Date.now() > deadline || writer.exitCode !== null) {
      writer.kill('SIGKILL')
      throw new Error(`the FIFO writer (pid ${pid}) never waited in open()`)
    }
    await new Promise((wake) => setTimeout(wake, 10))
  }
  return {
    tokenRead: async () => (await promisify(execFile)('timeout', ['20', 'cat', fifo]).catch(() => ({ stdout: '' }))).stdout,
    stop: () => writer.kill('SIGKILL'),
  }
}
