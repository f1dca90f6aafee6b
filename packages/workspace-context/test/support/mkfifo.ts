/**
 * Creates a FIFO with the system `mkfifo` (Node has no API for it).
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

/** Creates a named pipe at `path`. */
export async function mkfifo(path: string): Promise<void> {
  await promisify(execFile)('mkfifo', [path])
}
