/**
 * Replaces a file's content atomically: write a temp file next to the target, flush it, then
 * rename it over the target, so readers (and the hot-reload watcher) never see a half-written file.
 * Temp files of writers that were killed before their rename are removed first.
 */
import { randomUUID } from 'node:crypto'
import { chmod, mkdir, realpath, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { removeStaleTempFiles, tempFileName } from '@dsh/runtime'
import { errnoCode } from './errno.ts'

/**
 * Writes `text` to `file` via temp + rename. A symlinked `file` is followed, so the link survives;
 * an existing file's permission bits are kept. Creates the parent directory when missing.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const target = await resolveTarget(file)
  const directory = dirname(target)
  await mkdir(directory, { recursive: true })
  const mode = await existingMode(target)
  const prefix = `.${basename(target)}.`
  // Left over by a writer killed between write and rename; callers hold the file's lock.
  removeStaleTempFiles(directory, prefix)
  const temp = join(directory, tempFileName(prefix, randomUUID().slice(0, 8)))
  try {
    await writeFile(temp, text, { encoding: 'utf8', flush: true })
    if (mode !== undefined) await chmod(temp, mode)
    await rename(temp, target)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {
      // Swallowed: cleanup is best effort and the original write error is the one worth reporting.
    })
    throw error
  }
}

async function resolveTarget(file: string): Promise<string> {
  try {
    return await realpath(file)
  } catch (error) {
    // Swallows only ENOENT: a file that does not exist yet is written at its own path.
    if (errnoCode(error) === 'ENOENT') return file
    throw error
  }
}

async function existingMode(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mode & 0o7777
  } catch (error) {
    // Swallows only ENOENT: a new file gets the default mode.
    if (errnoCode(error) === 'ENOENT') return undefined
    throw error
  }
}
