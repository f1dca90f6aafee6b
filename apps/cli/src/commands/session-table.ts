/**
 * The text and JSON forms of `dsh sessions list`. Text: a header row and one aligned row per
 * session (id, relative update time, turns, size, cwd, title), every stored string made
 * terminal-safe. JSON: the same fields with ISO times and exact (JSON-escaped) strings.
 */
import type { SessionSummary } from '@dsh/runtime'
import { terminalLine } from '@dsh/workspace-context'
import { byteSize, relativeTime } from '@dsh/tui'

/** Longest title shown in the text form. */
const TITLE_COLUMN = 60

const shorten = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)

/** One session as `--json` prints it. */
export function sessionJson(row: SessionSummary) {
  return {
    id: row.id,
    title: row.title ?? null,
    cwd: row.header.cwd,
    createdAt: row.header.createdAt,
    updatedAt: row.updatedAt.toISOString(),
    turns: row.turnCount,
    events: row.eventCount,
    size: row.size,
    ...(row.header.origin === undefined ? {} : { origin: row.header.origin }),
    ...(row.header.parentSession === undefined ? {} : { parentSession: row.header.parentSession }),
  }
}

function titleCell(row: SessionSummary): string {
  const origin = row.header.origin === 'subagent' ? `[subagent of ${row.header.parentSession ?? '?'}] ` : ''
  return terminalLine(shorten(`${origin}${row.title ?? '(no prompt yet)'}`, TITLE_COLUMN))
}

/** The text table, header row first, columns padded to their widest cell. */
export function sessionTable(rows: readonly SessionSummary[], now: Date): string[] {
  const cells = [
    ['ID', 'UPDATED', 'TURNS', 'SIZE', 'CWD', 'TITLE'],
    ...rows.map((row) => [terminalLine(row.id), relativeTime(row.updatedAt, now), String(row.turnCount), byteSize(row.size), terminalLine(row.header.cwd), titleCell(row)]),
  ]
  const widths = cells[0]?.map((_, column) => Math.max(...cells.map((line) => line[column]?.length ?? 0))) ?? []
  const rightAligned = new Set([2, 3])
  return cells.map((line) =>
    line
      .map((cell, column) => {
        if (column === line.length - 1) return cell
        const width = widths[column] ?? 0
        return rightAligned.has(column) ? cell.padStart(width) : cell.padEnd(width)
      })
      .join('  ')
      .trimEnd(),
  )
}
