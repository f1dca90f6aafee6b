/**
 * A short line diff between what a rewind expected in a file and what is there now: the common
 * head and tail are dropped and at most a few lines of each side are shown.
 */
import type { FileState } from './checkpoint-types.ts'
import type { ObjectStore } from './object-store.ts'

/** Lines of each side shown at most. */
const SHOWN_LINES = 4
/** Longest content diffed as text. */
const TEXT_LIMIT = 256 * 1024

function textOf(state: FileState, store: ObjectStore): string | undefined {
  if (state.kind !== 'file' || state.size > TEXT_LIMIT) return undefined
  try {
    const bytes = store.get(state.blob)
    return bytes.includes(0) ? undefined : bytes.toString('utf8')
  } catch {
    // An object that cannot be read cannot be diffed; the caller says what it can.
    return undefined
  }
}

function describe(state: FileState): string {
  switch (state.kind) {
    case 'absent':
      return 'absent'
    case 'file':
      return `${state.size} bytes, mode ${state.mode.toString(8)}`
    case 'symlink':
      return `a link to ${state.target}`
    case 'not-kept':
      return `${state.size} bytes (not kept)`
    default: {
      const unreachable: never = state
      return String(unreachable)
    }
  }
}

const side = (lines: readonly string[], sign: string): string[] => [...lines.slice(0, SHOWN_LINES).map((line) => `${sign} ${line}`), ...(lines.length > SHOWN_LINES ? [`${sign} … ${lines.length - SHOWN_LINES} more lines`] : [])]

/** Diff lines (each prefixed `-` expected / `+` now), indented by the caller. */
export function shortDiff(expected: FileState, now: FileState, store: ObjectStore): string[] {
  const before = textOf(expected, store)
  const after = textOf(now, store)
  if (before === undefined || after === undefined || (before === after && expected.kind === 'file' && now.kind === 'file')) {
    return [`- ${describe(expected)}`, `+ ${describe(now)}`]
  }
  const a = before.split('\n')
  const b = after.split('\n')
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const removed = a.slice(head, a.length - tail)
  const added = b.slice(head, b.length - tail)
  return [`@@ line ${head + 1}`, ...side(removed, '-'), ...side(added, '+')]
}
