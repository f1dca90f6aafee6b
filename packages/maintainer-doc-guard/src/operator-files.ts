/**
 * Writes on the operator's channel (documents, templates), never through the model's gates:
 * the target is a path derived from a session or from `$DSH_HOME`, it must be exactly that path
 * once links are resolved (no link anywhere below the trusted base, so a repository cannot
 * redirect a save elsewhere), and the write is atomic (temp file and rename, through the fs
 * port) with the writable root opened for exactly the base directory and closed again after.
 */
import { dirname, relative, sep } from 'node:path'
import type { FileSystemPort, FsWriteResult } from '@dsh/contracts'
import { GuardError } from './guard-error.ts'

/** Options of {@link writeConfined}. */
export interface ConfinedWrite {
  /** Canonical directory the target must stay in (a documents folder, the templates folder). */
  readonly base: string
  /** Absolute target derived below `base`. */
  readonly path: string
  readonly content: string
}

/** Throws unless `path` is below `base` and resolves to itself. */
export async function requireUnlinked(fs: FileSystemPort, base: string, path: string): Promise<void> {
  const rel = relative(base, path)
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..') throw new GuardError('DOCS_UNSAFE_PATH', `${path} is not inside ${base}`)
  const real = (await fs.resolve(path, { cwd: dirname(path) })).path
  if (real !== path) throw new GuardError('DOCS_UNSAFE_PATH', `${path} leads through a symbolic link to ${real}; refusing to write through it`)
}

/** Writes `content` to `path` atomically, confined to `base`. */
export async function writeConfined(fs: FileSystemPort, write: ConfinedWrite): Promise<FsWriteResult> {
  await requireUnlinked(fs, write.base, write.path)
  const release = fs.addWritableRoot(write.base)
  try {
    return await fs.writeText(write.path, write.content)
  } finally {
    release()
  }
}
