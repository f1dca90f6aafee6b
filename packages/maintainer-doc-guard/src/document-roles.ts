/**
 * What each configured document is for, decided by its path tail: `maintainer/README.md` is for
 * people and never shown to the model, `plan.md` and `conventions.md` are the operator's (read-only
 * to the model), `lessons.md` is the model's own ledger. Everything else is an ordinary listed
 * document. Also the display form of a document path (relative to the session's cwd).
 */
import { relative, sep } from 'node:path'
import { hasTail } from './document-paths.ts'

/** Tail of the human-only document. */
export const HUMAN_ONLY_TAIL = 'maintainer/README.md'
/** Tails of the operator's documents. */
export const OPERATOR_TAILS: readonly string[] = ['plan.md', 'conventions.md']
/** Tail of the ledger. */
export const LEDGER_TAIL = 'lessons.md'

/** True for the human-only document. */
export const isHumanOnly = (name: string): boolean => hasTail(name, HUMAN_ONLY_TAIL)
/** True for an operator document. */
export const isOperatorDocument = (name: string): boolean => OPERATOR_TAILS.some((tail) => hasTail(name, tail))
/** True for the ledger. */
export const isLedger = (name: string): boolean => hasTail(name, LEDGER_TAIL)

/** `path` relative to `cwd` with `/` separators (the form the model sees). */
export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path)
  return (rel === '' ? '.' : rel).split(sep).join('/')
}
