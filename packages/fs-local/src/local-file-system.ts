/**
 * `createLocalFileSystem`: the `FileSystemPort` on `node:fs`, composed from the probe, bounded
 * reader, directory listing, writable-roots and atomic-write modules of this package. A port and
 * its per-session views (`withWritableRoots`) share everything but the set of writable roots.
 */
import { normalize, resolve as resolvePath } from 'node:path'
import type { FileSystemPort, FsDirEntry, FsEditSpec, FsReadFromOptions, FsReadOptions, FsVersion, FsWriteResult } from '@dsh/contracts'
import { applyEdit } from './edit-match.ts'
import { writeAtomically } from './atomic-write.ts'
import { canonicalPath, requireAbsolute } from './canonical-path.ts'
import { throwIfAborted } from './fs-error.ts'
import { listDirectory } from './list-dir.ts'
import { infoOf, pathInfoOf } from './node-info.ts'
import { probe } from './probe.ts'
import { createVersionProbe } from './raw-stat.ts'
import { readSmallTexts } from './small-texts.ts'
import { readWholeText, textChunks } from './text-reader.ts'
import { unlistedFilter } from './unlisted-paths.ts'
import { GrantedRoots, WritableRoots, type RootSet } from './writable-roots.ts'

/** Default read cap when a caller passes no `maxBytes` (64 MiB): no read is ever unbounded. */
export const DEFAULT_MAX_READ_BYTES = 64 * 1024 * 1024

/** Options of {@link createLocalFileSystem}. */
export interface LocalFileSystemOptions {
  /** Absolute directories writes are confined to. The OS temp dir is not added implicitly. */
  readonly writableRoots: readonly string[]
  /** Read cap used when a read passes no `maxBytes`; defaults to {@link DEFAULT_MAX_READ_BYTES}. */
  readonly defaultMaxBytes?: number
  /**
   * Locations `listDir` leaves out of a listing of a directory outside them (secret locations:
   * `~/.ssh`, dsh's session logs), and links into them (unlisted-paths.ts). Default: none.
   */
  readonly unlisted?: readonly string[]
}

/** Creates a `FileSystemPort` backed by the local disk. */
export function createLocalFileSystem(options: LocalFileSystemOptions): FileSystemPort {
  const roots = new WritableRoots()
  for (const root of options.writableRoots) roots.add(root)
  return portOver(roots, options.defaultMaxBytes ?? DEFAULT_MAX_READ_BYTES, createVersionProbe(), unlistedFilter(options.unlisted ?? []))
}

/**
 * The loop of `versions`, synchronous: an async function with a hot loop is what V8 optimises
 * with its whole state machine inlined, a small synchronous one costs it far less.
 */
function versionsOf(paths: readonly string[], versionAt: (path: string) => FsVersion | undefined): (FsVersion | undefined)[] {
  const versions: (FsVersion | undefined)[] = []
  for (let index = 0; index < paths.length; index++) {
    const path = paths[index] ?? ''
    requireAbsolute(path)
    versions.push(versionAt(path))
  }
  return versions
}

type ListingFilter = (dir: string, entries: readonly FsDirEntry[]) => readonly FsDirEntry[]

function portOver(roots: RootSet, defaultMaxBytes: number, versionAt: (path: string) => FsVersion | undefined, filter: ListingFilter): FileSystemPort {
  /** Canonical target of a write after the roots check, and the root it is written beneath. */
  const writeTarget = (path: string, signal: AbortSignal | undefined): { readonly root: string; readonly target: string } => {
    requireAbsolute(path)
    throwIfAborted(signal, path)
    const target = canonicalPath(path)
    return { root: roots.requireInside(target, path), target }
  }

  const port: FileSystemPort = {
    async resolve(path, { cwd, signal }) {
      throwIfAborted(signal, path)
      requireAbsolute(cwd, 'cwd')
      return { path: canonicalPath(resolvePath(cwd, path)), displayPath: normalize(path) }
    },

    async stat(path, signal) {
      requireAbsolute(path)
      throwIfAborted(signal, path)
      const stats = probe(path, true)
      return stats === undefined ? undefined : infoOf(stats)
    },

    async versions(paths, signal) {
      throwIfAborted(signal, paths[0] ?? '')
      return versionsOf(paths, versionAt)
    },

    async lstat(path, signal) {
      requireAbsolute(path)
      throwIfAborted(signal, path)
      const stats = probe(path, false)
      return stats === undefined ? undefined : pathInfoOf(stats)
    },

    readSmallTexts,

    streamText(path: string, readOptions: FsReadOptions = {}) {
      return textChunks(path, readOptions, defaultMaxBytes)
    },

    streamTextFrom(path: string, readOptions: FsReadFromOptions) {
      return textChunks(path, readOptions, defaultMaxBytes, readOptions.onOpened)
    },

    readText(path: string, readOptions: FsReadOptions = {}) {
      return readWholeText(path, readOptions, defaultMaxBytes)
    },

    async listDir(path, signal) {
      return filter(path, await listDirectory(path, signal))
    },

    async writeText(path, content, writeOptions): Promise<FsWriteResult> {
      const signal = writeOptions?.signal
      const { root, target } = writeTarget(path, signal)
      const bytes = Buffer.from(content, 'utf8')
      const { version, created } = await writeAtomically(root, target, bytes, { signal, displayPath: path })
      return { version, bytes: bytes.length, created }
    },

    async editText(path, edit: FsEditSpec, editOptions): Promise<FsWriteResult> {
      const signal = editOptions?.signal
      const { root, target } = writeTarget(path, signal)
      const readOptions = signal === undefined ? { keepBom: true } : { signal, keepBom: true }
      const current = await readWholeText(target, readOptions, defaultMaxBytes)
      const { text, replacements } = applyEdit(current.text, edit, path)
      const bytes = Buffer.from(text, 'utf8')
      const written = await writeAtomically(root, target, bytes, {
        signal,
        expectedVersion: current.version,
        displayPath: path,
      })
      return { version: written.version, bytes: bytes.length, replacements, created: false }
    },

    writableRoots: () => roots.list(),
    addWritableRoot: (root) => roots.add(root),
    withWritableRoots: (grant) => portOver(new GrantedRoots(grant), defaultMaxBytes, versionAt, filter),
    // Every read of this port is already a read of the local disk.
    localDisk: () => port,
  }
  return port
}
