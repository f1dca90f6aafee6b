/**
 * Resolves each configured document for one session through the fs port: the first location in
 * probe order holding a non-blank regular file wins (a blank file created on first open never
 * shadows a document at a broader level). Reads are bounded and stay inside the trusted roots
 * (the session's cwd and project root, canonical): a document that is a link leading elsewhere is
 * reported, never read. An unchanged file (same version) is served from the memo.
 */
import { sep } from 'node:path'
import type { FileSystemPort, FsVersion } from '@dsh/contracts'
import { documentLocations, type DocumentLevel, type SessionPlace } from './document-paths.ts'

/** Largest document read, in bytes. */
export const MAX_DOCUMENT_BYTES = 256 * 1024

/** A document found at some level. */
export interface FoundDocument {
  /** Level of the winning location. */
  readonly level: DocumentLevel
  /** Absolute path of the winning location (as derived, not link-resolved). */
  readonly path: string
  /** Its canonical path (links resolved), for matching reads. */
  readonly realPath: string
  /** Its text. */
  readonly text: string
  /** Its version (changes whenever the content may have changed). */
  readonly version: FsVersion
}

/** What probing one document found. */
export interface DocumentProbe {
  /** The configured name. */
  readonly name: string
  /** The winning document, if any location has content. */
  readonly found?: FoundDocument
  /** Locations that exist but could not be used, and why. */
  readonly problems: readonly { readonly path: string; readonly reason: string }[]
}

/** Read cache keyed by path. */
export type DocumentMemo = Map<string, { readonly version: FsVersion; readonly text: string }>

/** True when `path` is `root` or lies below it. */
export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)
}

function reasonOf(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : ''
  const reasons: Record<string, string> = { FS_TOO_LARGE: `larger than ${MAX_DOCUMENT_BYTES / 1024} KiB`, FS_NOT_UTF8: 'not UTF-8 text', FS_SPECIAL_FILE: 'not a regular file', FS_NOT_A_FILE: 'not a regular file' }
  return reasons[code] ?? 'unreadable'
}

type Attempt = { readonly kind: 'found'; readonly doc: FoundDocument } | { readonly kind: 'skip' } | { readonly kind: 'problem'; readonly reason: string }

async function attempt(fs: FileSystemPort, path: string, level: DocumentLevel, trusted: readonly string[], memo: DocumentMemo, signal?: AbortSignal): Promise<Attempt> {
  const info = await fs.stat(path, signal)
  if (info === undefined) return { kind: 'skip' }
  if (info.type !== 'file') return { kind: 'problem', reason: 'not a regular file' }
  const real = (await fs.resolve(path, { cwd: path, ...(signal === undefined ? {} : { signal }) })).path
  if (level !== 'absolute' && !trusted.some((root) => isInside(root, real))) return { kind: 'problem', reason: 'a link that leads outside the workspace' }
  const cached = memo.get(path)
  if (cached !== undefined && cached.version === info.version) {
    return cached.text.trim() === '' ? { kind: 'skip' } : { kind: 'found', doc: { level, path, realPath: real, text: cached.text, version: cached.version } }
  }
  const read = await fs.readText(real, { maxBytes: MAX_DOCUMENT_BYTES, ...(signal === undefined ? {} : { signal }) })
  memo.set(path, { version: read.version, text: read.text })
  return read.text.trim() === '' ? { kind: 'skip' } : { kind: 'found', doc: { level, path, realPath: real, text: read.text, version: read.version } }
}

/** Options of {@link probeDocuments}. */
export interface ProbeOptions {
  readonly place: SessionPlace
  readonly docs: readonly string[]
  readonly docsDir: string
  /** Canonical trusted roots (the session's cwd and project root). */
  readonly trustedRoots: readonly string[]
  readonly memo: DocumentMemo
  readonly signal?: AbortSignal
}

/** Probes every configured document. Cancellation rejects; every other failure is a problem entry. */
export async function probeDocuments(fs: FileSystemPort, options: ProbeOptions): Promise<DocumentProbe[]> {
  const out: DocumentProbe[] = []
  for (const name of options.docs) {
    const problems: { path: string; reason: string }[] = []
    let found: FoundDocument | undefined
    for (const location of documentLocations(options.place, options.docsDir, name)) {
      let result: Attempt
      try {
        result = await attempt(fs, location.path, location.level, options.trustedRoots, options.memo, options.signal)
      } catch (error) {
        // One unreadable location is reported and the probe moves on; a cancel ends the probe.
        if (options.signal?.aborted === true) throw error
        result = { kind: 'problem', reason: reasonOf(error) }
      }
      if (result.kind === 'problem') problems.push({ path: location.path, reason: result.reason })
      if (result.kind === 'found') {
        found = result.doc
        break
      }
    }
    out.push({ name, problems, ...(found === undefined ? {} : { found }) })
  }
  return out
}
