/**
 * One operator save of a maintainer document as a single step: under a cross-process lock on the
 * target (`<document>.lock`, the runtime's `withFileLock`), compare the document's current version
 * with the one the caller read and only then write, so of two saves that read the same text (two
 * tabs, two `dsh web`, an `$EDITOR` session) exactly one lands and the other is refused with
 * `DOCS_CHANGED`. A save larger than what a read accepts (`MAX_DOCUMENT_BYTES`) is refused before
 * anything is written, so nothing is saved that could not be read back.
 */
import { createHash } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { isDshError, withFileLock } from '@dsh/runtime'
import { MAX_DOCUMENT_BYTES } from './document-probe.ts'
import { GuardError } from './guard-error.ts'
import { requireUnlinked, writeConfined } from './operator-files.ts'

/** The version of a document's text as operator front ends see it: SHA-256 hex of its UTF-8 bytes. */
export const documentVersion = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

/** Options of {@link saveDocument}. */
export interface DocumentSave {
  readonly fs: FileSystemPort
  /** The document's name, for messages. */
  readonly name: string
  /** Canonical directory the target must stay in. */
  readonly base: string
  /** The file the save writes. */
  readonly path: string
  readonly content: string
  /** The version the caller read; absent saves unconditionally. */
  readonly expected?: string | undefined
  /** The document's text now (read again under the lock). */
  readonly current: () => Promise<string>
}

/** Throws `DOCS_TOO_LARGE` for text a read would refuse. */
export function requireReadableSize(name: string, content: string): void {
  const bytes = Buffer.byteLength(content, 'utf8')
  if (bytes > MAX_DOCUMENT_BYTES) {
    throw new GuardError('DOCS_TOO_LARGE', `${name}: ${bytes} bytes is more than the ${MAX_DOCUMENT_BYTES / 1024} KiB a document may hold (larger ones cannot be read back); nothing was saved: shorten it or keep the long part in another file`)
  }
}

/** Checks the version and writes, as one step under the target's lock. */
export async function saveDocument(save: DocumentSave): Promise<{ readonly bytes: number }> {
  requireReadableSize(save.name, save.content)
  await requireUnlinked(save.fs, save.base, save.path)
  await mkdir(dirname(save.path), { recursive: true })
  try {
    return await withFileLock(
      {
        file: `${save.path}.lock`,
        busy: (holder, file) => new GuardError('DOCS_BUSY', `${save.name} is being saved by ${holder} (lock ${file}); nothing was saved: try again`),
        takenOver: (file) => new GuardError('DOCS_BUSY', `the lock ${file} was taken over while ${save.name} was being saved; nothing was saved: try again`),
      },
      async (hold) => {
        if (save.expected !== undefined && documentVersion(await save.current()) !== save.expected) {
          throw new GuardError('DOCS_CHANGED', `${save.name} changed since it was loaded (the model, another tab or an editor saved it); nothing was saved: reload it and apply your edit again`)
        }
        hold.requireHeld()
        return writeConfined(save.fs, { base: save.base, path: save.path, content: save.content })
      },
    )
  } catch (error) {
    // Not swallowed: a lock that cannot be created becomes the guard's typed failure naming it.
    if (isDshError(error) && error.code === 'LOCK_FAILED') throw new GuardError('DOCS_WRITE_FAILED', `${save.name}: ${error.message}; nothing was saved`)
    throw error
  }
}
