/**
 * The append-only log of one turn's checkpoint, `turns/<N>.jsonl`. Each line is a partial
 * {@link TurnCheckpoint}: the files whose record changed since the previous line, with the turn's
 * current roots and totals. Read back, the lines fold into one checkpoint (a later entry of a path
 * wins; roots and totals come from the last line). Keeping a change durably is one append and one
 * `fdatasync` — rewriting a whole file took a temp file, two flushes and a rename. A line cut short
 * by a crash is no record: the reader ignores it and the writer cuts it off before it appends, so
 * a crash leaves the checkpoint as it was after the last whole line.
 */
import { closeSync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import type { FileChange, TurnCheckpoint } from './checkpoint-types.ts'
import { errnoOf, syncDirectory } from './durable-file.ts'

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Whether `value` is a line of the log of `turn` (the envelope; entries are written only by {@link TurnLogWriter}). */
function isLine(value: unknown, turn: number): value is TurnCheckpoint {
  return isRecord(value) && value['version'] === 1 && value['turn'] === turn && isRecord(value['files']) && Array.isArray(value['roots']) && typeof value['bytesAdded'] === 'number'
}

/** Folds the text of a turn log; throws a one-line error naming `file` when a whole line is not a record. */
export function foldTurnLog(text: string, file: string, turn: number): TurnCheckpoint | undefined {
  const whole = text.lastIndexOf('\n')
  if (whole < 0) return undefined
  let folded: TurnCheckpoint | undefined
  const files: Record<string, FileChange> = {}
  for (const [index, line] of text.slice(0, whole).split('\n').entries()) {
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      // The parser's message names no file; this one names the file and the line.
      throw new Error(`checkpoint file ${file} is corrupt (line ${index + 1} is not JSON)`)
    }
    if (!isLine(value, turn)) throw new Error(`checkpoint file ${file} is corrupt (line ${index + 1} is not a turn checkpoint)`)
    Object.assign(files, value.files)
    folded = value
  }
  return folded === undefined ? undefined : { ...folded, files }
}

/** Appends lines to one turn's log (one writer per turn, in the session's process). */
export class TurnLogWriter {
  #handle: number | undefined
  /** Directories to flush with the next durable line (the log's own entry, once). */
  #unsyncedDirectories: string[] = []

  constructor(readonly file: string) {}

  #open(): number {
    if (this.#handle !== undefined) return this.#handle
    const directory = dirname(this.file)
    const made = mkdirSync(directory, { recursive: true, mode: 0o700 })
    let existing: Buffer | undefined
    try {
      existing = readFileSync(this.file)
    } catch (error) {
      // ENOENT: the turn's first line; the file and its directory entry are new.
      if (errnoOf(error) !== 'ENOENT') throw error
    }
    const handle = openSync(this.file, 'a', 0o600)
    if (existing === undefined) this.#unsyncedDirectories = made === undefined ? [directory] : [dirname(directory), directory]
    else if (existing.length > 0 && existing[existing.length - 1] !== 0x0a) ftruncateSync(handle, existing.lastIndexOf(0x0a) + 1)
    this.#handle = handle
    return handle
  }

  /** Appends one line; with `flush` (the default) it is on stable storage when this returns. */
  append(line: TurnCheckpoint, options: { readonly flush?: boolean } = {}): void {
    const handle = this.#open()
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`)
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(handle, bytes, offset, bytes.length - offset)
    if (options.flush === false) return
    fdatasyncSync(handle)
    for (const directory of this.#unsyncedDirectories) syncDirectory(directory)
    this.#unsyncedDirectories = []
  }

  /** Closes the log (a later append opens it again). */
  close(): void {
    if (this.#handle === undefined) return
    closeSync(this.#handle)
    this.#handle = undefined
  }
}
