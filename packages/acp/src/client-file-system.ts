/**
 * The filesystem of one ACP session's tools when the client can read and write text files
 * (`fs.readTextFile` / `fs.writeTextFile` in its capabilities): reads and writes of regular files
 * go through the editor, so the model sees unsaved changes of open buffers and its writes land in
 * them. Everything else (listing, stat, searches through `localDisk`, special files, files that do
 * not exist yet for reads) stays on the local disk. Writes are confined exactly as before: a path outside the
 * session's writable roots is refused with `FS_OUTSIDE_ROOTS` before the client is asked. An edit
 * reads the text through the client, applies the exact-match rule, and writes it back.
 */
import { existsSync, realpathSync } from 'node:fs'
import { basename, dirname, join, sep } from 'node:path'
import type { AgentContext } from '@agentclientprotocol/sdk'
import type { FileSystemPort, FsEditSpec, FsReadOptions, FsVersion, FsWriteResult } from '@dsh/contracts'
import { applyEdit, FsError } from '@dsh/fs-local'

/** Options of {@link clientFileSystem}. */
export interface ClientFileSystemOptions {
  /** The session's own (confined) filesystem. */
  readonly base: FileSystemPort
  /** The ACP session id. */
  readonly sessionId: string
  /** The client to ask (the running prompt's), or undefined when none is connected. */
  readonly client: () => AgentContext | undefined
  /** The client reads text files. */
  readonly read: boolean
  /** The client writes text files. */
  readonly write: boolean
}

/** `path` with the links of its longest existing prefix resolved (a new file's path). */
function canonicalTarget(path: string): string {
  let existing = path
  const rest: string[] = []
  while (!existsSync(existing) && dirname(existing) !== existing) {
    rest.unshift(basename(existing))
    existing = dirname(existing)
  }
  return join(realpathSync.native(existing), ...rest)
}

function requireInside(path: string, roots: readonly string[]): void {
  const target = canonicalTarget(path)
  if (roots.some((root) => target === root || target.startsWith(root.endsWith(sep) ? root : `${root}${sep}`))) return
  throw new FsError('FS_OUTSIDE_ROOTS', path, `outside the writable roots (writable roots: ${roots.join(', ')})`)
}

/** The session's filesystem with text reads and writes of regular files routed through the client. */
export function clientFileSystem(options: ClientFileSystemOptions): FileSystemPort {
  const { base, sessionId } = options
  const readThroughClient = async (path: string, read: FsReadOptions | undefined): Promise<{ text: string; version: FsVersion } | undefined> => {
    const client = options.read ? options.client() : undefined
    if (client === undefined) return undefined
    const info = await base.stat(path, read?.signal)
    if (info?.type !== 'file') return undefined
    const { content } = await client.request('fs/read_text_file', { sessionId, path }, read?.signal === undefined ? {} : { cancellationSignal: read.signal, stopWaitingOnCancel: true })
    if (read?.maxBytes !== undefined && Buffer.byteLength(content) > read.maxBytes) throw new FsError('FS_TOO_LARGE', path, `larger than ${read.maxBytes} bytes`)
    return { text: content, version: info.version }
  }
  const writeThroughClient = async (path: string, content: string, signal: AbortSignal | undefined): Promise<FsWriteResult | undefined> => {
    const client = options.write ? options.client() : undefined
    if (client === undefined) return undefined
    requireInside(path, base.writableRoots())
    const existed = (await base.stat(path, signal)) !== undefined
    await client.request('fs/write_text_file', { sessionId, path, content }, signal === undefined ? {} : { cancellationSignal: signal, stopWaitingOnCancel: true })
    const after = await base.stat(path, signal)
    if (after === undefined) throw new FsError('FS_IO', path, 'the editor did not save the file')
    return { version: after.version, bytes: Buffer.byteLength(content), created: !existed }
  }
  return {
    resolve: (path, resolveOptions) => base.resolve(path, resolveOptions),
    stat: (path, signal) => base.stat(path, signal),
    lstat: (path, signal) => base.lstat(path, signal),
    ...(base.versions === undefined ? {} : { versions: base.versions.bind(base) }),
    async *streamText(path, read) {
      const through = await readThroughClient(path, read)
      if (through === undefined) yield* base.streamText(path, read)
      else yield through.text
    },
    readText: async (path, read) => (await readThroughClient(path, read)) ?? base.readText(path, read),
    listDir: (path, signal) => base.listDir(path, signal),
    writeText: async (path, content, write) => (await writeThroughClient(path, content, write?.signal)) ?? base.writeText(path, content, write),
    editText: async (path: string, edit: FsEditSpec, write) => {
      const through = options.write ? await readThroughClient(path, write) : undefined
      if (through === undefined) return base.editText(path, edit, write)
      const changed = applyEdit(through.text, edit, path)
      const result = await writeThroughClient(path, changed.text, write?.signal)
      return result === undefined ? base.editText(path, edit, write) : { ...result, replacements: changed.replacements }
    },
    writableRoots: () => base.writableRoots(),
    addWritableRoot: (root) => base.addWritableRoot(root),
    // Searches read from the disk, never one fs/read_text_file request per file.
    ...(base.localDisk === undefined ? {} : { localDisk: () => base.localDisk?.() ?? base }),
  }
}
