/**
 * The layout of one session's checkpoint directory, `$DSH_HOME/checkpoints/<session-id>/`:
 * `objects/` (the content store), `turns/<N>.json` (one checkpoint per turn), `rewinds/<id>.json`
 * (completed rewinds, each file its own commit point) and `journal.json` (a rewind in progress).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { RewindJournal, RewindRecord, TurnCheckpoint } from './checkpoint-types.ts'
import { absentJson, readJson, writeJsonDurable } from './durable-file.ts'
import { ObjectStore } from './object-store.ts'

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

  #turnFile(turn: number): string {
    return join(this.path, 'turns', `${turn}.json`)
  }

  /** The checkpoint of `turn`, undefined when the turn changed nothing; throws naming a corrupt file. */
  turn(turn: number): TurnCheckpoint | undefined {
    const file = this.#turnFile(turn)
    const value = readJson(file)
    if (value === absentJson) return undefined
    if (!isRecord(value) || value['version'] !== 1 || value['turn'] !== turn || !isRecord(value['files']) || !Array.isArray(value['roots'])) throw new Error(`checkpoint file ${file} is corrupt (not a turn checkpoint)`)
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the envelope was checked above; the file is only ever written by saveTurn
    return value as unknown as TurnCheckpoint
  }

  /** Turn numbers with a checkpoint, ascending. */
  turns(): number[] {
    const directory = join(this.path, 'turns')
    if (!existsSync(directory)) return []
    return readdirSync(directory)
      .flatMap((name) => (/^\d+\.json$/.test(name) ? [Number(name.slice(0, -5))] : []))
      .toSorted((a, b) => a - b)
  }

  /** Saves a turn's checkpoint (after the objects it names): flushed unless `flush` is false (then whole, but a crash may keep the previous one). */
  saveTurn(checkpoint: TurnCheckpoint, options: { readonly flush?: boolean } = {}): void {
    writeJsonDurable(this.#turnFile(checkpoint.turn), checkpoint, options)
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
