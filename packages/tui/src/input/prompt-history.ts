/**
 * Prompt history across chats, per project: `$DSH_HOME/history/<hash of the directory>.jsonl`,
 * one JSON line `{ "text", "time" }` per submitted input, appended as it is sent. The editor gets
 * the latest {@link historyLimit} entries (oldest first, so Up recalls the newest). An unreadable
 * or malformed file loses only the lines that cannot be read; a failed append is reported once.
 */
import { createHash } from 'node:crypto'
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { errnoCode, errorMessage } from '@dsh/runtime'

/** Entries loaded into the editor. */
export const historyLimit = 100
/** Inputs longer than this are not stored (a huge paste is not worth recalling). */
export const maxStoredChars = 64 * 1024

/** The history file of a project directory. */
export function historyFile(dshHome: string, projectDir: string): string {
  const key = createHash('sha256').update(projectDir).digest('hex').slice(0, 24)
  return join(dshHome, 'history', `${key}.jsonl`)
}

function entryText(line: string): string | undefined {
  try {
    const value: unknown = JSON.parse(line)
    if (typeof value !== 'object' || value === null || !('text' in value)) return undefined
    return typeof value.text === 'string' ? value.text : undefined
  } catch {
    // A torn or foreign line: skip it, keep the rest of the history.
    return undefined
  }
}

/** Persistent prompt history of one project. */
export class PromptHistory {
  readonly #file: string
  readonly #warn: (line: string) => void
  #warned = false

  constructor(options: { readonly dshHome: string; readonly projectDir: string; readonly warn: (line: string) => void }) {
    this.#file = historyFile(options.dshHome, options.projectDir)
    this.#warn = options.warn
  }

  /** The latest entries, oldest first. */
  load(): string[] {
    let text: string
    try {
      text = readFileSync(this.#file, 'utf8')
    } catch (error) {
      // No history yet is the normal first run; anything else is reported and the chat goes on.
      if (errnoCode(error) !== 'ENOENT') this.#warn(`cannot read prompt history ${this.#file}: ${errorMessage(error)}`)
      return []
    }
    const entries = text.split('\n').flatMap((line) => {
      const entry = line === '' ? undefined : entryText(line)
      return entry === undefined ? [] : [entry]
    })
    return entries.slice(-historyLimit)
  }

  /** Appends one submitted input. */
  add(text: string, now: Date): void {
    if (text.trim() === '' || text.length > maxStoredChars) return
    try {
      mkdirSync(join(this.#file, '..'), { recursive: true, mode: 0o700 })
      appendFileSync(this.#file, `${JSON.stringify({ text, time: now.toISOString() })}\n`, { mode: 0o600 })
    } catch (error) {
      // Losing history must not stop the chat: say so once.
      if (!this.#warned) this.#warn(`cannot save prompt history to ${this.#file}: ${errorMessage(error)}`)
      this.#warned = true
    }
  }
}
