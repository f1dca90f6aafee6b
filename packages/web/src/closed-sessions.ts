/**
 * The sessions the person closed on the page: a mark kept by the web host in
 * `$DSH_HOME/web-closed-sessions.json` (`{ version: 1, closed: { ID: ISO time } }`), never in the
 * session log, which closing leaves exactly as it was (`dsh sessions`, `dsh chat --resume` still see
 * the session). The file is read on every listing, so a close in another dsh web on the same
 * `$DSH_HOME` shows at the next one; changes are read-modify-write under the runtime's file lock and
 * replace the file atomically (temp file + rename).
 */
import { randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { errnoCode, errorMessage, removeStaleTempFiles, tempFileName, withFileLock } from '@dsh/runtime'

const version = 1

/** The closed marks of one `$DSH_HOME`. */
export class ClosedSessions {
  readonly #file: string
  readonly #warn: (line: string) => void
  /** The last complaint, so an unreadable file is reported once, not on every listing. */
  #reported = ''

  constructor(options: { readonly dshHome: string; readonly warn: (line: string) => void }) {
    this.#file = join(options.dshHome, 'web-closed-sessions.json')
    this.#warn = options.warn
  }

  /** The closed session ids with the time each was closed. */
  read(): Map<string, string> {
    let text: string
    try {
      text = readFileSync(this.#file, 'utf8')
    } catch (error) {
      // Swallows ENOENT only: nothing was ever closed. Any other failure lists every session (said once).
      if (errnoCode(error) !== 'ENOENT') this.#report(`cannot be read (${errnoCode(error) ?? errorMessage(error)})`)
      return new Map()
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      // Swallowed: a damaged file hides nothing (every session is listed); the next close writes it anew.
      this.#report(`is not valid JSON (${errorMessage(error)})`)
      return new Map()
    }
    const closed: unknown = typeof value === 'object' && value !== null ? Object.getOwnPropertyDescriptor(value, 'closed')?.value : undefined
    if (typeof closed !== 'object' || closed === null) return new Map()
    return new Map(Object.entries(closed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
  }

  /** Marks `id` closed (at `at`). */
  async close(id: string, at: Date): Promise<void> {
    await this.#change((closed) => closed.set(id, at.toISOString()))
  }

  /** Removes the mark of `id` (nothing happens when it has none). */
  async reopen(id: string): Promise<void> {
    if (!this.read().has(id)) return
    await this.#change((closed) => closed.delete(id))
  }

  async #change(edit: (closed: Map<string, string>) => void): Promise<void> {
    await withFileLock({ file: `${this.#file}.lock` }, (hold) => {
      const closed = this.read()
      edit(closed)
      const text = `${JSON.stringify({ version, closed: Object.fromEntries(closed) }, null, 2)}\n`
      const directory = dirname(this.#file)
      mkdirSync(directory, { recursive: true })
      const prefix = `${basename(this.#file)}.`
      // Left over by a writer killed between write and rename (this one holds the lock).
      removeStaleTempFiles(directory, prefix)
      const temp = join(directory, tempFileName(prefix, randomUUID()))
      hold.requireHeld()
      try {
        writeFileSync(temp, text, { flag: 'wx', mode: 0o600, flush: true })
        renameSync(temp, this.#file)
      } catch (error) {
        rmSync(temp, { force: true })
        throw error
      }
    })
  }

  #report(what: string): void {
    const line = `warning: ${this.#file} ${what}; the sessions list shows every session`
    if (line === this.#reported) return
    this.#reported = line
    this.#warn(line)
  }
}
