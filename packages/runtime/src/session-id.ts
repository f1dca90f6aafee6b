/**
 * Session ids: the file-name stem of `<id>.jsonl` in the sessions directory. Validates ids (so a
 * client cannot name a path outside the directory) and resolves what a person types — a whole id
 * or a unique prefix of one (`dsh run --resume 20260102`) — to the one id it names:
 *
 * 1. an id whose file exists names itself (even when it is also the prefix of longer ids);
 * 2. otherwise every `*.jsonl` whose stem starts with the text is a candidate: none is
 *    `SESSION_NOT_FOUND`, more than one is `SESSION_AMBIGUOUS` listing a few, newest id first.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { DshError, errnoCode } from './errors.ts'
import { ioReason } from './file-io.ts'

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

/** File-name suffix of session files. */
export const SESSION_SUFFIX = '.jsonl'

/** How many candidates an ambiguous-prefix error names. */
const SHOWN_CANDIDATES = 4

/** Throws `SESSION_NOT_FOUND` for text that is not a possible session id (or prefix of one). */
export function checkSessionId(id: string): string {
  if (!idPattern.test(id)) throw new DshError('SESSION_NOT_FOUND', `invalid session id "${id}" (ids use letters, digits, '.', '_' and '-')`)
  return id
}

/** Stems of the session files in `directory`; empty when it does not exist yet. */
export function sessionIdsIn(directory: string): string[] {
  let names: string[]
  try {
    names = readdirSync(directory)
  } catch (error) {
    // No sessions directory yet (nothing was ever stored): there are no sessions.
    if (errnoCode(error) === 'ENOENT') return []
    if (errnoCode(error) === undefined) throw error
    throw new DshError('SESSION_READ', `cannot list the sessions in ${directory}: ${ioReason(error)}`, { cause: error })
  }
  return names.filter((name) => name.endsWith(SESSION_SUFFIX) && idPattern.test(name.slice(0, -SESSION_SUFFIX.length))).map((name) => name.slice(0, -SESSION_SUFFIX.length))
}

/** The one stored id that `text` names (a whole id or a unique prefix); throws a one-line error otherwise. */
export function resolveSessionId(directory: string, text: string): string {
  checkSessionId(text)
  if (existsSync(join(directory, `${text}${SESSION_SUFFIX}`))) return text
  const candidates = sessionIdsIn(directory)
    .filter((id) => id.startsWith(text))
    .toSorted((a, b) => b.localeCompare(a))
  const [only] = candidates
  if (only === undefined) throw new DshError('SESSION_NOT_FOUND', `no session "${text}" in ${directory}`)
  if (candidates.length === 1) return only
  const shown = candidates.slice(0, SHOWN_CANDIDATES).join(', ')
  const more = candidates.length > SHOWN_CANDIDATES ? `, and ${candidates.length - SHOWN_CANDIDATES} more` : ''
  throw new DshError('SESSION_AMBIGUOUS', `ambiguous prefix: ${candidates.length} sessions start with "${text}": ${shown}${more}; type more of the id`)
}
