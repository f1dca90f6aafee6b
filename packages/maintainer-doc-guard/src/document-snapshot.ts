/**
 * A session's documents as of one moment: where the session lives (canonical cwd, project root,
 * lineage), the trusted roots reads must stay in, and the probe of every configured document.
 * Taken at every pre-step by the plugin (the prompt section renders from it synchronously) and on
 * demand by the operator service. The place is resolved once per session and reused.
 */
import type { FileSystemPort, SessionHeader } from '@dsh/contracts'
import type { SessionPlace } from './document-paths.ts'
import { probeDocuments, type DocumentMemo, type DocumentProbe } from './document-probe.ts'
import { findProjectRoot } from './project-root.ts'
import type { ResolvedConfig } from './resolve-config.ts'

/** The documents of one session. */
export interface DocumentSnapshot {
  readonly place: SessionPlace
  /** Canonical cwd and project root. */
  readonly trustedRoots: readonly string[]
  readonly probes: readonly DocumentProbe[]
}

/** Options of {@link takeSnapshot}. */
export interface SnapshotOptions {
  readonly config: ResolvedConfig
  readonly header: SessionHeader
  readonly lineage: readonly string[]
  /** The previous snapshot of the same session (its place is reused). */
  readonly previous?: DocumentSnapshot | undefined
  readonly memo: DocumentMemo
  readonly signal?: AbortSignal
}

async function placeOf(fs: FileSystemPort, options: SnapshotOptions): Promise<{ place: SessionPlace; trustedRoots: string[] }> {
  const signal = options.signal === undefined ? {} : { signal: options.signal }
  const cwd = (await fs.resolve(options.header.cwd, { cwd: options.header.cwd, ...signal })).path
  const projectRoot = await findProjectRoot(fs, { cwd, markers: options.config.projectMarkers, walkUp: options.config.walkUp, ...signal })
  return { place: { sessionId: options.header.id, cwd, projectRoot, lineage: options.lineage }, trustedRoots: cwd === projectRoot ? [cwd] : [cwd, projectRoot] }
}

/** Probes the session's documents. */
export async function takeSnapshot(fs: FileSystemPort, options: SnapshotOptions): Promise<DocumentSnapshot> {
  const known = options.previous
  const { place, trustedRoots } = known === undefined ? await placeOf(fs, options) : { place: { ...known.place, lineage: options.lineage }, trustedRoots: known.trustedRoots }
  const probes = await probeDocuments(fs, {
    place,
    docs: options.config.docs,
    docsDir: options.config.docsDir,
    trustedRoots,
    memo: options.memo,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  })
  return { place, trustedRoots, probes }
}
