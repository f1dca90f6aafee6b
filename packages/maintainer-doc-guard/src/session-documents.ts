/**
 * A session's documents seen from the operator's side: where the session lives (derived from its
 * stored header: canonical cwd, project root, the sessions that delegated to it), the probe of
 * every document, where a save goes, and the first-open setup that creates the session folder
 * with a blank file for each missing document (`conventions.md` seeded with the ten rules only
 * when it is created; the ledger is not created, so the workspace ledger stays the shared one).
 */
import { join } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { CONVENTIONS_SEED } from './conventions-seed.ts'
import { isSafeRelativeName, sessionFolder } from './document-paths.ts'
import type { DocumentProbe } from './document-probe.ts'
import { isLedger } from './document-roles.ts'
import { takeSnapshot, type DocumentSnapshot } from './document-snapshot.ts'
import { GuardError } from './guard-error.ts'
import { writeConfined } from './operator-files.ts'
import type { ResolvedConfig } from './resolve-config.ts'
import type { SessionDirectory } from './session-directory.ts'

/** Where a save goes: `auto` is the session's own file when it has content, else the workspace level. */
export type WriteLevel = 'auto' | 'session' | 'workspace'

/** Resolves a live or stored session into its document snapshot. */
export async function sessionSnapshot(fs: FileSystemPort, sessions: SessionDirectory, config: ResolvedConfig, sessionId: string): Promise<DocumentSnapshot> {
  const header = sessions.header(sessionId)
  if (header === undefined || sessionFolder(header.cwd, config.docsDir, sessionId) === undefined) throw new GuardError('DOCS_UNKNOWN_SESSION', `no session "${sessionId}"`)
  const lineage: string[] = []
  for (let parent = header.parentSession; parent !== undefined && lineage.length < 16 && !lineage.includes(parent); parent = sessions.header(parent)?.parentSession) lineage.push(parent)
  return takeSnapshot(fs, { config, header, lineage, memo: new Map() })
}

/** The configured document called `name`, or a typed error. */
export function requireDocument(config: ResolvedConfig, name: string): string {
  const match = config.docs.find((doc) => doc === name)
  if (match === undefined) throw new GuardError('DOCS_UNKNOWN_DOCUMENT', `"${name}" is not a maintainer document (documents: ${config.docs.join(', ')})`)
  if (!isSafeRelativeName(match)) throw new GuardError('DOCS_UNSAFE_PATH', `"${name}" is an absolute document; edit it in place`)
  return match
}

/** The folder a level writes into, and the target path of `name` there. */
export function writeTarget(snapshot: DocumentSnapshot, config: ResolvedConfig, name: string, level: WriteLevel): { readonly base: string; readonly path: string } {
  const { cwd, sessionId } = snapshot.place
  const own = sessionFolder(cwd, config.docsDir, sessionId) ?? join(cwd, config.docsDir)
  const probe = snapshot.probes.find((item) => item.name === name)
  const chosen = level === 'auto' ? (probe?.found?.level === 'session' ? 'session' : 'workspace') : level
  const base = join(cwd, config.docsDir)
  return { base, path: join(chosen === 'session' ? own : base, name) }
}

async function exists(fs: FileSystemPort, path: string): Promise<boolean> {
  return (await fs.stat(path)) !== undefined
}

/** Creates the missing documents of a session on first open; returns the names created. */
export async function ensureDocuments(fs: FileSystemPort, snapshot: DocumentSnapshot, config: ResolvedConfig): Promise<string[]> {
  const { cwd, sessionId } = snapshot.place
  const folder = sessionFolder(cwd, config.docsDir, sessionId)
  if (folder === undefined) return []
  const created: string[] = []
  for (const probe of snapshot.probes satisfies readonly DocumentProbe[]) {
    if (isLedger(probe.name) || !isSafeRelativeName(probe.name) || probe.found !== undefined) continue
    const path = join(folder, probe.name)
    if (await exists(fs, path)) continue
    const content = probe.name === 'conventions.md' || probe.name.endsWith('/conventions.md') ? CONVENTIONS_SEED : ''
    await writeConfined(fs, { base: join(cwd, config.docsDir), path, content })
    created.push(probe.name)
  }
  return created
}
