/**
 * read's line index, kept between reads of the same unchanged file: byte offsets of line starts
 * (every `stride` lines) and, for one long line paged by characters, byte offsets of character
 * positions (every `stride` characters). A read records the positions it streams past and the next
 * read of that file starts at the nearest one before its window instead of at byte 0.
 *
 * Entries are keyed by path and checked against the file's version (device, inode, size, mtime,
 * ctime): a changed file drops its entry. Memory is bounded: at most {@link MAX_STOPS} positions per
 * list (past that every other one is dropped and the stride doubles) and {@link MAX_FILES} files
 * (the least recently used is dropped).
 */
import type { FsVersion } from '@dsh/contracts'

/** Most positions kept per list. */
export const MAX_STOPS = 4096
/** Most files indexed at once. */
export const MAX_FILES = 16
/** Lines between recorded line starts, at first. */
const FIRST_LINE_STRIDE = 64
/** Characters between recorded positions of a long line, at first. */
const FIRST_CHAR_STRIDE = 16_384

/** Strides and bounds of an index (the defaults outside tests, which shrink them to exercise thinning). */
export interface LineIndexLimits {
  /** Lines between recorded line starts, at first. Default 64. */
  readonly lineStride?: number
  /** Characters between recorded positions of a long line, at first. Default 16,384. */
  readonly charStride?: number
  /** Most positions kept per list. Default {@link MAX_STOPS}. */
  readonly maxStops?: number
}

/** A known position: item `at` (a line number, or a 0-based character of a line) starts at byte `byte`. */
export interface Stop {
  readonly at: number
  readonly byte: number
}

/** Positions at a stride, thinned to stay under {@link MAX_STOPS}. */
class Stops {
  stride: number
  readonly list: Stop[] = []
  readonly #max: number

  constructor(stride: number, max: number, first: Stop) {
    this.stride = stride
    this.#max = max
    this.list.push(first)
  }

  /** Whether item `at` would be recorded (on the stride, past the last one kept). */
  wants(at: number, origin: number): boolean {
    const last = this.list.at(-1)
    return (last === undefined || at > last.at) && (at - origin) % this.stride === 0
  }

  /** Records `stop` when it is wanted. */
  offer(stop: Stop, origin: number): void {
    if (!this.wants(stop.at, origin)) return
    this.list.push(stop)
    if (this.list.length <= this.#max) return
    this.stride *= 2
    let kept = 0
    for (const item of this.list) if ((item.at - origin) % this.stride === 0) this.list[kept++] = item
    this.list.length = kept
  }

  /** The last stop at or before `at`. */
  before(at: number): Stop | undefined {
    let low = 0
    let high = this.list.length - 1
    let found: Stop | undefined
    while (low <= high) {
      const middle = (low + high) >>> 1
      const stop = this.list[middle]
      if (stop === undefined) break
      if (stop.at <= at) {
        found = stop
        low = middle + 1
      } else high = middle - 1
    }
    return found
  }
}

/** The index of one version of one file. */
export class FileLineIndex {
  readonly version: FsVersion
  readonly #limits: Required<LineIndexLimits>
  readonly #lines: Stops
  /** The long line paged by characters most recently, its character positions and its length once known. */
  #long: { line: number; stops: Stops; length?: number } | undefined
  /** Lines in the file, once a read reached its end. */
  totalLines: number | undefined

  constructor(version: FsVersion, limits: Required<LineIndexLimits>) {
    this.version = version
    this.#limits = limits
    this.#lines = new Stops(limits.lineStride, limits.maxStops, { at: 1, byte: 0 })
  }

  /** Whether the start of `line` would be recorded (so its byte offset is worth measuring). */
  wantsLine(line: number): boolean {
    return this.#lines.wants(line, 1)
  }

  /** The next character of `line` at or after `char` whose position would be recorded, if that line is the indexed one (or none is). */
  nextWantedChar(line: number, char: number): number {
    const stops = this.#long?.line === line ? this.#long.stops : undefined
    const stride = stops?.stride ?? this.#limits.charStride
    const last = stops?.list.at(-1)?.at ?? 0
    const from = Math.max(char, last + 1)
    return Math.ceil(from / stride) * stride
  }

  /** Line `line` starts at byte `byte`. */
  lineStart(line: number, byte: number): void {
    this.#lines.offer({ at: line, byte }, 1)
  }

  /** The nearest known line start at or before `line`. */
  lineBefore(line: number): Stop {
    return this.#lines.before(line) ?? { at: 1, byte: 0 }
  }

  /** Character `char` (0-based) of line `line`, which starts at byte `lineByte`, starts at byte `byte`. */
  charStart(line: number, lineByte: number, char: number, byte: number): void {
    if (this.#long?.line !== line) this.#long = { line, stops: new Stops(this.#limits.charStride, this.#limits.maxStops, { at: 0, byte: lineByte }) }
    this.#long.stops.offer({ at: char, byte }, 0)
  }

  /** The nearest known position at or before character `char` (0-based) of `line`, if that line is indexed. */
  charBefore(line: number, char: number): Stop | undefined {
    return this.#long?.line === line ? this.#long.stops.before(char) : undefined
  }

  /** Records the length of `line` in characters (only for the long line being indexed). */
  lineLength(line: number, length: number): void {
    if (this.#long?.line === line) this.#long.length = length
  }

  /** The length of `line`, when it is the indexed long line and a read reached its end. */
  knownLength(line: number): number | undefined {
    return this.#long?.line === line ? this.#long.length : undefined
  }
}

/** What the cache did, for tests and diagnostics. */
export interface LineIndexCounters {
  /** Reads that found an index of the file's current version. */
  hits: number
  /** Reads that found an index of an older version and dropped it. */
  invalidated: number
  /** Bytes the reads streamed, in total. */
  bytesStreamed: number
}

/** The indexes of one read tool (one per `coreTools()` call). */
export class LineIndexCache {
  readonly #files = new Map<string, FileLineIndex>()
  readonly counters: LineIndexCounters = { hits: 0, invalidated: 0, bytesStreamed: 0 }
  readonly #limits: Required<LineIndexLimits>

  constructor(limits: LineIndexLimits = {}) {
    this.#limits = { lineStride: limits.lineStride ?? FIRST_LINE_STRIDE, charStride: limits.charStride ?? FIRST_CHAR_STRIDE, maxStops: limits.maxStops ?? MAX_STOPS }
  }

  /** The index of `path` at `version`: the kept one when the file is unchanged, else a new one. */
  open(path: string, version: FsVersion): FileLineIndex {
    const kept = this.#files.get(path)
    this.#files.delete(path)
    let index: FileLineIndex
    if (kept?.version === version) {
      this.counters.hits += 1
      index = kept
    } else {
      if (kept !== undefined) this.counters.invalidated += 1
      index = new FileLineIndex(version, this.#limits)
    }
    this.#files.set(path, index)
    const oldest = this.#files.keys().next()
    if (this.#files.size > MAX_FILES && oldest.done !== true) this.#files.delete(oldest.value)
    return index
  }

  /** Drops the index of `path` (its file changed while it was read). */
  forget(path: string): void {
    this.#files.delete(path)
  }
}
