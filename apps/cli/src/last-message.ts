/**
 * `dsh run -o FILE` / `--output-last-message FILE` (as `codex exec` spells it): the final answer of
 * the run's last turn is written to FILE when the run ends, whatever the output format — also after
 * a failure, then with what text there is (often none), so a file left by an earlier run is never
 * read as this run's answer. A file that cannot be written fails the run with one line.
 */
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { errorMessage } from '@dsh/runtime'
import { CliError } from './cli-error.ts'
import type { CliIo } from './cli-io.ts'

/** Runs `run` with a recorder of the final text, then writes what was recorded to `file` (undefined: no file). */
export async function withLastMessage(io: CliIo, file: string | undefined, run: (record: (text: string) => void) => Promise<number>): Promise<number> {
  if (file === undefined) return run(() => undefined)
  let last = ''
  let code: number | undefined
  try {
    code = await run((text) => {
      last = text
    })
    return code
  } finally {
    const path = resolve(io.cwd, file)
    try {
      writeFileSync(path, last)
    } catch (error) {
      // The answer is on stdout either way; a script that asked for the file must not read a stale one as this run's.
      // oxlint-disable-next-line no-unsafe-finally -- a file that cannot be written is the run's failure, told in one line
      throw new CliError(`--output-last-message ${path}: ${errorMessage(error)}`)
    }
  }
}
