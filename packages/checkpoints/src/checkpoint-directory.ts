/**
 * The layout of one session's checkpoint directory, `$DSH_HOME/checkpoints/<session-id>/`:
 * `objects/` (the content store), `turns/<N>.jsonl` (one checkpoint per turn, an append-only log;
 * `turns/<N>.json`, a whole document, is what earlier versions wrote and is still read), `rewinds/<id>.json`
 * (completed rewinds, each file its own commit point) and `journal.json` (a rewind in progress).
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { RewindJournal, RewindRecord, TurnCheckpoint } from './checkpoint-types.ts'
import { absentJson, errnoOf, readJson, writeJsonDurable } from './durable-file.ts'
import { ObjectStore } from './object-store.ts'
import { foldTurnLog, TurnLogWriter } from './turn-log.ts'

/** The checkpoints root under a dsh home. */
export const checkpointsRoot = (dshHome: string): string => join(dshHome, 'checkpoints')

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** One session's checkpoint directory. */
export class CheckpointDirectory {
  readonly path: string
  readonly objects: ObjectStore

  constructor(dshHome: string, readonly sessionId: string) {
    this.path = join(checkpointsRoot(dshHome), sessionId)
    this.objects = new ObjectStore(join(this.path, 'objects'))
  }

  /** Whether anything was ever recorded for the session. */
  exists(): boolean {
    return existsSync(this.path)
  }

  #turnFile(turn: number, extension: 'jsonl' | 'json'): string {
    return join(this.path, 'turns', `${turn}.${extension}`)
  }

  /** The checkpoint of `turn`, undefined when the turn changed nothing; throws naming a corrupt file. */
  turn(turn: number): TurnCheckpoint | undefined {
    const log = this.#turnFile(turn, 'jsonl')
    let text: string | undefined
    try {
      text = readFileSync(log, 'utf8')
    } catch (error) {
      // ENOENT: no log for the turn (it changed nothing, or an earlier version wrote a whole document).
      if (errnoOf(error) !== 'ENOENT') throw error
    }
    if (text !== undefined) return foldTurnLog(text, log, turn)
    const file = this.#turnFile(turn, 'json')
    const value = readJson(file)
    if (value === absentJson) return undefined
    if (!isRecord(value) || value['version'] !== 1 || value['turn'] !== turn || !isRecord(value['files']) || !Array.isArray(value['roots'])) throw new Error(`checkpoint file ${file} is corrupt (not a turn checkpoint)`)
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the envelope was checked above; such files were only ever written by dsh
    return value as unknown as TurnCheckpoint
  }

  /** Turn numbers with a checkpoint, ascending. */
  turns(): number[] {
    const directory = join(this.path, 'turns')
    if (!existsSync(directory)) return []
    const numbers = new Set(readdirSync(directory).flatMap((name) => (/^\d+\.jsonl?$/.test(name) ? [Number(name.slice(0, name.indexOf('.')))] : [])))
    return [...numbers].toSorted((a, b) => a - b)
  }

  /** Whether `turn` has a log (rather than an earlier version's whole document, or nothing). */
  turnLogExists(turn: number): boolean {
    return existsSync(this.#turnFile(turn, 'jsonl'))
  }

  /** The writer of `turn`'s log (the session's process alone writes it; the caller closes it). */
  turnLog(turn: number): TurnLogWriter {
    return new TurnLogWriter(this.#turnFile(turn, 'jsonl'))
  }

  /** Completed rewinds, oldest first. */
  rewinds(): RewindRecord[] {
    const directory = join(this.path, 'rewinds')
    if (!existsSync(directory)) return []
    const records = readdirSync(directory)
      .filter((name) => name.endsWith('.json'))
      .map((name) => {
        const value = readJson(join(directory, name))
        if (!isRecord(value) || value['version'] !== 1 || typeof value['time'] !== 'string') throw new Error(`checkpoint file ${join(directory, name)} is corrupt (not a rewind record)`)
        // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- checked envelope; written only by saveRewind
        return value as unknown as RewindRecord
      })
    return records.toSorted((a, b) => a.time.localeCompare(b.time) || a.id.localeCompare(b.id))
  }

  /** Whether the rewind `id` committed. */
  hasRewind(id: string): boolean {
    return existsSync(join(this.path, 'rewinds', `${id}.json`))
  }

  /** Commits a rewind (its record is the commit point). */
  saveRewind(record: RewindRecord): void {
    writeJsonDurable(join(this.path, 'rewinds', `${record.id}.json`), record)
  }

  /** The journal of a rewind in progress, if one was left. */
  journal(): RewindJournal | undefined {
    const file = join(this.path, 'journal.json')
    const value = readJson(file)
    if (value === absentJson) return undefined
    if (!isRecord(value) || value['version'] !== 1 || !isRecord(value['record'])) throw new Error(`checkpoint file ${file} is corrupt (not a rewind journal)`)
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- checked envelope; written only by saveJournal
    return value as unknown as RewindJournal
  }

  /** Writes the journal durably (before any file of the rewind changes). */
  saveJournal(journal: RewindJournal): void {
    writeJsonDurable(join(this.path, 'journal.json'), journal)
  }

  /** Removes the journal (the rewind is complete or rolled back). */
  clearJournal(): void {
    rmSync(join(this.path, 'journal.json'), { force: true })
  }

  /** Removes everything stored for the session. */
  remove(): void {
    rmSync(this.path, { recursive: true, force: true })
  }
}
