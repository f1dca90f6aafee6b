/**
 * Three-state probe of a root's path, synchronous so the write path can re-check a grant at every
 * write: a directory (with its canonical path), nothing usable there (absent, or not a
 * directory), or not examinable (a permission or I/O error: neither present nor absent).
 */
import { realpathSync, statSync } from 'node:fs'
import { errnoCode, errorMessage } from '@dsh/runtime'

/** What is at a path now. */
export type PathProbe =
  | { readonly kind: 'directory'; readonly canonical: string }
  | { readonly kind: 'absent' }
  | { readonly kind: 'not-a-directory' }
  | { readonly kind: 'unavailable'; readonly detail: string }

const ABSENT = new Set(['ENOENT', 'ENOTDIR'])

/** Probes absolute `path`, following links. */
export function probePath(path: string): PathProbe {
  try {
    if (!statSync(path).isDirectory()) return { kind: 'not-a-directory' }
    return { kind: 'directory', canonical: realpathSync.native(path) }
  } catch (error) {
    // ENOENT/ENOTDIR (a dangling link included) mean nothing is there; anything else (EACCES,
    // ELOOP, EIO) says nothing about the directory and is reported as not examinable.
    const code = errnoCode(error)
    if (code !== undefined && ABSENT.has(code)) return { kind: 'absent' }
    return { kind: 'unavailable', detail: code ?? errorMessage(error) }
  }
}
