/**
 * Reads the settings file into a three-state result. "Could not read" (permissions, a directory
 * in the way, I/O errors) is `unavailable`, never `absent`: treating it as missing would silently
 * revert every namespace to its base values, and a later write would clobber the file.
 */
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { parseDocument, type Document } from 'yaml'
import { errnoCode } from './errno.ts'

/** What reading the settings file found. */
export type SettingsFileState =
  | {
      /** The file exists and was read; `document` may still carry YAML `errors`. */
      readonly kind: 'present'
      /** Parsed document (comments kept, for round-tripping). */
      readonly document: Document
      /** Raw text as read. */
      readonly text: string
    }
  | {
      /** No file at that path (ENOENT). */
      readonly kind: 'absent'
    }
  | {
      /** The file could not be read for another reason. */
      readonly kind: 'unavailable'
      /** The underlying error. */
      readonly error: Error
    }

/** Reads and parses the settings file. Never rejects. */
export async function readSettingsFile(file: string): Promise<SettingsFileState> {
  try {
    return present(await readFile(file, 'utf8'))
  } catch (error) {
    // Swallowed into the result: the caller decides between "missing" and "could not read".
    return failed(error)
  }
}

/** Synchronous variant, used once at store construction so `register` can answer at once. */
export function readSettingsFileSync(file: string): SettingsFileState {
  try {
    return present(readFileSync(file, 'utf8'))
  } catch (error) {
    // Swallowed into the result, as in readSettingsFile.
    return failed(error)
  }
}

function present(text: string): SettingsFileState {
  return { kind: 'present', document: parseDocument(text), text }
}

function failed(error: unknown): SettingsFileState {
  if (errnoCode(error) === 'ENOENT') return { kind: 'absent' }
  return { kind: 'unavailable', error: error instanceof Error ? error : new Error(String(error)) }
}
