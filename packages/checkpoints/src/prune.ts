/**
 * `dsh checkpoints prune`: removes the checkpoint directories of sessions whose log is gone and of
 * sessions not written for longer than a given age (the newer of the session log's and the
 * checkpoint directory's modification times counts).
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { checkpointsRoot } from './checkpoint-directory.ts'

/** Parses `30d`, `12h`, `90m` or `45s` to milliseconds; undefined when malformed. */
export function parseAge(text: string): number | undefined {
  const match = /^(\d+)([dhms])$/.exec(text.trim())
  if (match === null) return undefined
  const units: Readonly<Record<string, number>> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 }
  const unit = units[match[2] ?? '']
  return unit === undefined ? undefined : Number(match[1]) * unit
}

const mtimeOf = (path: string): number => (existsSync(path) ? statSync(path).mtimeMs : 0)

/** What a prune removed. */
export interface PruneResult {
  readonly removed: readonly { readonly sessionId: string; readonly reason: 'session gone' | 'older' }[]
  readonly kept: number
}

/** Removes checkpoints older than `olderThanMs` (relative to `now`) or without a session. */
export function pruneCheckpoints(options: { readonly dshHome: string; readonly olderThanMs: number; readonly now: Date }): PruneResult {
  const root = checkpointsRoot(options.dshHome)
  if (!existsSync(root)) return { removed: [], kept: 0 }
  const removed: PruneResult['removed'][number][] = []
  let kept = 0
  for (const sessionId of readdirSync(root).toSorted()) {
    const directory = join(root, sessionId)
    const log = join(options.dshHome, 'sessions', `${sessionId}.jsonl`)
    const newest = Math.max(mtimeOf(log), mtimeOf(join(directory, 'turns')), mtimeOf(directory))
    const reason = !existsSync(log) ? 'session gone' : options.now.getTime() - newest > options.olderThanMs ? 'older' : undefined
    if (reason === undefined) {
      kept++
      continue
    }
    rmSync(directory, { recursive: true, force: true })
    removed.push({ sessionId, reason })
  }
  return { removed, kept }
}
