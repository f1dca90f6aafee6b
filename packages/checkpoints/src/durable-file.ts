/**
 * Durable whole-file writes: the bytes go to a private temp file in the same directory, are
 * flushed to stable storage, renamed over the destination, and the directory is flushed, so a
 * crash at any point leaves the old file or the new one, never a torn one.
 */
import { randomUUID } from 'node:crypto'
import { closeSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/** Flushes a directory's entries (the rename that put a file there). */
export function syncDirectory(directory: string): void {
  const handle = openSync(directory, 'r')
  try {
    fsyncSync(handle)
  } finally {
    closeSync(handle)
  }
}

/**
 * Writes `data` to `path` durably (see the module header), creating the parent directory. With
 * `flush: false` the rename still makes the file appear whole, but a crash may leave the old one.
 */
export function writeDurable(path: string, data: string | Uint8Array, options: { readonly mode?: number; readonly flush?: boolean } = {}): void {
  const directory = dirname(path)
  mkdirSync(directory, { recursive: true, mode: 0o700 })
  const temp = join(directory, `.${basename(path)}.${randomUUID()}.tmp`)
  const handle = openSync(temp, 'wx', options.mode ?? 0o600)
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(handle, bytes, offset, bytes.length - offset)
    // fdatasync: the data and the size, which is all a reader needs; the rename is flushed with the directory.
    if (options.flush !== false) fdatasyncSync(handle)
  } catch (error) {
    closeSync(handle)
    rmSync(temp, { force: true })
    throw error
  }
  closeSync(handle)
  renameSync(temp, path)
  if (options.flush !== false) syncDirectory(directory)
}

/** The `code` of a Node.js system error, undefined for anything else. */
export function errnoOf(error: unknown): string | undefined {
  const code: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined
  return typeof code === 'string' ? code : undefined
}

/** Writes a JSON document durably. */
export function writeJsonDurable(path: string, value: unknown, options: { readonly flush?: boolean } = {}): void {
  writeDurable(path, `${JSON.stringify(value)}\n`, options)
}

/** Reads a JSON document: its value, `absent` when there is no file, or throws a one-line error naming it when it is not JSON. */
export function readJson(path: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    // ENOENT is the absent case the caller asks about; anything else (EACCES, EIO) is a real failure.
    if (errnoOf(error) === 'ENOENT') return absentJson
    throw error
  }
  try {
    return JSON.parse(text) as unknown
  } catch {
    // The parser's message says little; the caller's error names the file.
    throw new Error(`checkpoint file ${path} is corrupt (not JSON)`)
  }
}

/** What {@link readJson} returns for a missing file. */
export const absentJson: unique symbol = Symbol('absent')
