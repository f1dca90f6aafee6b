/**
 * In-memory `FileSystemPort` for tests: directories, files (bytes), symlinks and special nodes,
 * opaque versions that change on every mutation (a directory's version changes when an entry is
 * added or removed, like its mtime), optional `changedAtMs` timestamps taken from a test clock at
 * every mutation (a same-version rewrite keeps its timestamp), node identities (`nodeId`: a
 * rewrite keeps the node, a hard link shares it), a recording of every call, and fault injection
 * (failing stat/lstat/read, reads that never settle, files that grow while streamed, a provider
 * that reports no sizes or no node identities, or ignores the read cap).
 */
import { dirname, isAbsolute, join, normalize, resolve as resolvePath, sep } from 'node:path'
import type { FileSystemPort, FsDirEntry, FsErrorCode, FsInfo, FsPathInfo, FsReadOptions, FsVersion, FsWriteResult } from '@dsh/contracts'

type Node = (
  | { kind: 'dir'; version: number }
  | { kind: 'file'; bytes: Uint8Array; version: number }
  | { kind: 'link'; target: string; version: number }
  | { kind: 'other'; version: number }
) & { changedAtMs?: number; readonly id: number }

const isVersion = (_value: string): _value is FsVersion => true

/** The opaque version string of a logical clock value. */
function versionOf(tick: number): FsVersion {
  const value = `v${tick}`
  if (!isVersion(value)) throw new Error('unreachable')
  return value
}

/** An error shaped like the port's `FsError`. */
export class FakeFsError extends Error {
  constructor(
    readonly code: FsErrorCode,
    readonly path: string,
    message: string = code,
  ) {
    super(`${message}: ${path}`)
  }
}

/** One recorded call. */
export interface FsCall {
  readonly method: 'resolve' | 'stat' | 'lstat' | 'streamText' | 'readText' | 'listDir' | 'writeText' | 'editText'
  readonly path: string
}

/** Fault injection switches (absolute paths). */
export interface Faults {
  readonly failStat: Set<string>
  readonly failLstat: Set<string>
  readonly failRead: Set<string>
  readonly hangRead: Set<string>
  /** Streams this many extra bytes beyond the stored content (a growing file). */
  readonly grow: Map<string, number>
  /** Reports no size in stat results. */
  omitSizes: boolean
  /** Reports no `nodeId` (a provider that does not know node identities). */
  omitNodeIds: boolean
  /** Streams past `maxBytes` instead of rejecting (a provider that ignores the cap). */
  ignoreReadCap: boolean
}

/** The fake filesystem. */
export class FakeFileSystem implements FileSystemPort {
  readonly #nodes = new Map<string, Node>()
  #clock = 0
  #ids = 0
  readonly calls: FsCall[] = []
  /** Chunks handed out by `streamText` so far (how far a reader pulled). */
  chunksStreamed = 0
  readonly #hangWaiters: (() => void)[] = []
  readonly faults: Faults = { failStat: new Set(), failLstat: new Set(), failRead: new Set(), hangRead: new Set(), grow: new Map(), omitSizes: false, omitNodeIds: false, ignoreReadCap: false }
  chunkSize = 7
  /** When set, every mutation stamps the node with this clock's reading as `changedAtMs`. */
  readonly #stampClock: (() => number) | undefined

  constructor(files: Readonly<Record<string, string | Uint8Array>> = {}, stampClock?: () => number) {
    this.#stampClock = stampClock
    this.#nodes.set(sep, this.#stamped({ kind: 'dir', version: 0, id: this.#newId() }))
    for (const [path, content] of Object.entries(files)) this.write(path, content)
  }

  #newId(): number {
    this.#ids += 1
    return this.#ids
  }

  #tick(): number {
    this.#clock += 1
    return this.#clock
  }

  #stamped<N extends Node>(node: N): N {
    if (this.#stampClock !== undefined) node.changedAtMs = this.#stampClock()
    return node
  }

  #touchParent(path: string): void {
    const parent = this.#nodes.get(dirname(path))
    if (parent === undefined) return
    parent.version = this.#tick()
    this.#stamped(parent)
  }

  /** Sets the timestamp of `path` without changing its version (clock skew, `touch -d`). */
  setChangedAt(path: string, changedAtMs: number): void {
    const node = this.#nodes.get(path)
    if (node !== undefined) node.changedAtMs = changedAtMs
  }

  /** Creates parent directories of `path`. */
  mkdirp(path: string): void {
    const parts = normalize(path).split(sep).filter(Boolean)
    let current: string = sep
    for (const part of parts) {
      current = join(current, part)
      if (!this.#nodes.has(current)) {
        this.#nodes.set(current, this.#stamped({ kind: 'dir', version: this.#tick(), id: this.#newId() }))
        this.#touchParent(current)
      }
    }
  }

  /**
   * Writes a file (creating parents). `keepVersion` simulates a same-tick rewrite. An existing file
   * is rewritten in place (same node, so every hard link sees the new content); anything else at
   * `path` is replaced by a new file node.
   */
  write(path: string, content: string | Uint8Array, keepVersion = false): void {
    this.mkdirp(dirname(path))
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content
    const existing = this.#nodes.get(path)
    if (existing === undefined) this.#touchParent(path)
    if (existing?.kind === 'file') {
      existing.bytes = bytes
      if (keepVersion) return
      existing.version = this.#tick()
      this.#stamped(existing)
      return
    }
    const node: Node = { kind: 'file', bytes, version: keepVersion && existing !== undefined ? existing.version : this.#tick(), id: this.#newId() }
    if (keepVersion && existing?.changedAtMs !== undefined) node.changedAtMs = existing.changedAtMs
    this.#nodes.set(path, keepVersion && existing !== undefined ? node : this.#stamped(node))
  }

  /** Makes `path` a hard link to the existing file `existing` (one node, two names). */
  hardlink(path: string, existing: string): void {
    const node = this.#nodes.get(existing)
    if (node?.kind !== 'file') throw new Error(`hardlink: ${existing} is not a file`)
    this.mkdirp(dirname(path))
    if (!this.#nodes.has(path)) this.#touchParent(path)
    this.#nodes.set(path, node)
  }

  /** Creates a symlink at `path` pointing at `target` (absolute or relative to the link's directory). */
  symlink(path: string, target: string): void {
    this.mkdirp(dirname(path))
    if (!this.#nodes.has(path)) this.#touchParent(path)
    this.#nodes.set(path, this.#stamped({ kind: 'link', target, version: this.#tick(), id: this.#newId() }))
  }

  /** Creates a special node (FIFO, device). */
  special(path: string): void {
    this.mkdirp(dirname(path))
    if (!this.#nodes.has(path)) this.#touchParent(path)
    this.#nodes.set(path, this.#stamped({ kind: 'other', version: this.#tick(), id: this.#newId() }))
  }

  /** Removes `path` and everything below it. */
  remove(path: string): void {
    for (const key of this.#nodes.keys()) if (key === path || key.startsWith(`${path}${sep}`)) this.#nodes.delete(key)
    this.#touchParent(path)
  }

  /** Counts recorded calls by method. */
  count(method?: FsCall['method']): number {
    return method === undefined ? this.calls.length : this.calls.filter((c) => c.method === method).length
  }

  /** Follows links in every component; `undefined` for a link loop. */
  #canonical(path: string, depth = 0): string | undefined {
    if (depth > 32) return undefined
    const parts = normalize(path).split(sep).filter(Boolean)
    let current: string = sep
    for (let index = 0; index < parts.length; index++) {
      const next = join(current, parts[index] ?? '')
      const node = this.#nodes.get(next)
      if (node?.kind === 'link') {
        const target = isAbsolute(node.target) ? node.target : resolvePath(current, node.target)
        const resolved = this.#canonical(join(target, ...parts.slice(index + 1)), depth + 1)
        return resolved
      }
      current = next
    }
    return current
  }

  #followed(path: string): Node | undefined {
    const canonical = this.#canonical(path)
    return canonical === undefined ? undefined : this.#nodes.get(canonical)
  }

  #info(node: Node, follow: boolean): FsPathInfo {
    const version = versionOf(node.version)
    const stamp = { ...(node.changedAtMs === undefined ? {} : { changedAtMs: node.changedAtMs }), ...(this.faults.omitNodeIds ? {} : { nodeId: `n${node.id}` }) }
    if (node.kind === 'file') return this.faults.omitSizes ? { type: 'file', version, ...stamp } : { type: 'file', size: node.bytes.length, version, ...stamp }
    if (node.kind === 'dir') return { type: 'directory', version, ...stamp }
    if (node.kind === 'link' && !follow) return { type: 'symlink', version, ...stamp }
    return { type: 'other', version, ...stamp }
  }

  resolve(path: string, options: { readonly cwd: string; readonly signal?: AbortSignal }): Promise<{ path: string; displayPath: string }> {
    this.calls.push({ method: 'resolve', path })
    options.signal?.throwIfAborted()
    const absolute = resolvePath(options.cwd, path)
    const parent = this.#canonical(dirname(absolute)) ?? dirname(absolute)
    const own = this.#nodes.get(join(parent, absolute.split(sep).at(-1) ?? ''))
    // Like realpath: a link loop is an error (ELOOP), not a missing target.
    if (own?.kind === 'link' && this.#canonical(absolute) === undefined) return Promise.reject(new FakeFsError('FS_IO', path, 'ELOOP: too many symbolic links'))
    const canonical = own?.kind === 'link' ? (this.#canonical(absolute) ?? absolute) : join(parent, absolute.split(sep).at(-1) ?? '')
    return Promise.resolve({ path: absolute === sep ? sep : canonical, displayPath: path })
  }

  stat(path: string, signal?: AbortSignal): Promise<FsInfo | undefined> {
    this.calls.push({ method: 'stat', path })
    signal?.throwIfAborted()
    if (this.faults.failStat.has(path)) return Promise.reject(new FakeFsError('FS_IO', path, 'injected stat failure'))
    const node = this.#followed(path)
    if (node === undefined) return Promise.resolve(undefined)
    const info = this.#info(node, true)
    return Promise.resolve(info.type === 'symlink' ? { ...info, type: 'other' } : { ...info, type: info.type })
  }

  lstat(path: string, signal?: AbortSignal): Promise<FsPathInfo | undefined> {
    this.calls.push({ method: 'lstat', path })
    signal?.throwIfAborted()
    if (this.faults.failLstat.has(path)) return Promise.reject(new FakeFsError('FS_IO', path, 'injected lstat failure'))
    const parent = this.#canonical(dirname(path))
    const node = parent === undefined ? undefined : this.#nodes.get(join(parent, path.split(sep).at(-1) ?? ''))
    return Promise.resolve(node === undefined ? undefined : this.#info(node, false))
  }

  /** Resolves once a read of a `hangRead` path is hanging (waiting for its signal). */
  nextHang(): Promise<void> {
    return new Promise((resolve) => this.#hangWaiters.push(resolve))
  }

  async *streamText(path: string, options: FsReadOptions = {}): AsyncIterable<string> {
    this.calls.push({ method: 'streamText', path })
    const { signal, maxBytes = Number.POSITIVE_INFINITY } = options
    signal?.throwIfAborted()
    if (this.faults.hangRead.has(path)) {
      const hung = new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new FakeFsError('FS_ABORTED', path)), { once: true }))
      for (const wake of this.#hangWaiters.splice(0)) wake()
      await hung
    }
    if (this.faults.failRead.has(path)) throw new FakeFsError('FS_IO', path, 'injected read failure')
    const node = this.#followed(path)
    if (node === undefined) throw new FakeFsError('FS_NOT_FOUND', path)
    if (node.kind === 'dir') throw new FakeFsError('FS_NOT_A_FILE', path)
    if (node.kind !== 'file') throw new FakeFsError('FS_SPECIAL_FILE', path)
    const extra = this.faults.grow.get(path) ?? 0
    const bytes = extra === 0 ? node.bytes : new Uint8Array([...node.bytes, ...new Uint8Array(extra).fill(0x61)])
    let text: string
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    } catch {
      // The fake mirrors the port contract: invalid UTF-8 is a typed error, never mojibake.
      throw new FakeFsError('FS_NOT_UTF8', path)
    }
    let seen = 0
    for (let index = 0; index < text.length; index += this.chunkSize) {
      signal?.throwIfAborted()
      const chunk = text.slice(index, index + this.chunkSize)
      seen += Buffer.byteLength(chunk)
      if (seen > maxBytes && !this.faults.ignoreReadCap) throw new FakeFsError('FS_TOO_LARGE', path)
      this.chunksStreamed += 1
      yield chunk
    }
  }

  async readText(path: string, options: FsReadOptions = {}): Promise<{ text: string; version: FsVersion }> {
    const chunks: string[] = []
    for await (const chunk of this.streamText(path, options)) chunks.push(chunk)
    const node = this.#followed(path)
    return { text: chunks.join(''), version: versionOf(node?.version ?? 0) }
  }

  listDir(path: string): Promise<readonly FsDirEntry[]> {
    this.calls.push({ method: 'listDir', path })
    const entries: FsDirEntry[] = []
    for (const [key, node] of this.#nodes) {
      if (dirname(key) !== path || key === path) continue
      entries.push({ name: key.split(sep).at(-1) ?? '', type: node.kind === 'dir' ? 'directory' : node.kind === 'link' ? 'symlink' : node.kind === 'file' ? 'file' : 'other' })
    }
    return Promise.resolve(entries.toSorted((a, b) => (a.name < b.name ? -1 : 1)))
  }

  writeText(path: string, content: string): Promise<FsWriteResult> {
    this.calls.push({ method: 'writeText', path })
    const created = !this.#nodes.has(path)
    this.write(path, content)
    return Promise.resolve({ version: versionOf(this.#clock), bytes: Buffer.byteLength(content), created })
  }

  async editText(path: string, edit: { oldString: string; newString: string }): Promise<FsWriteResult> {
    this.calls.push({ method: 'editText', path })
    const { text } = await this.readText(path)
    this.write(path, text.replace(edit.oldString, edit.newString))
    return { version: versionOf(this.#clock), bytes: 0, replacements: 1, created: false }
  }

  writableRoots(): readonly string[] {
    return [sep]
  }

  addWritableRoot(): () => void {
    return () => undefined
  }
}
