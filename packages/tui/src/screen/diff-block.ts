/**
 * A coloured diff: added lines green, removed lines red, hunk headers cyan, file headers bold,
 * each cut to the width, at most `maxLines` lines with a count of the rest.
 */
import { structuredPatch } from 'diff'
import { truncateToWidth, type Component } from '@mariozechner/pi-tui'
import type { Theme } from '../theme.ts'
import { sanitize } from '../text-safety.ts'

/** An empty side starts at the line before, as git writes it (`@@ -0,0 +1,1 @@` for a new file). */
const start = (line: number, count: number): number => (count === 0 ? line - 1 : line)

/** Unified diff lines (no file headers) of an old and new text. */
export function diffLines(oldText: string, newText: string, context = 2): string[] {
  const patch = structuredPatch('a', 'b', oldText, newText, '', '', { context })
  return patch.hunks.flatMap((hunk) => [`@@ -${start(hunk.oldStart, hunk.oldLines)},${hunk.oldLines} +${start(hunk.newStart, hunk.newLines)},${hunk.newLines} @@`, ...hunk.lines.filter((line) => !line.startsWith('\\'))])
}

/** Renders diff lines. */
export class DiffBlock implements Component {
  readonly #lines: readonly string[]
  readonly #theme: Theme
  readonly #maxLines: number
  readonly #indent: string

  constructor(options: { readonly lines: readonly string[]; readonly theme: Theme; readonly maxLines?: number; readonly indent?: string }) {
    this.#lines = options.lines.map((line) => sanitize(line))
    this.#theme = options.theme
    this.#maxLines = options.maxLines ?? Number.POSITIVE_INFINITY
    this.#indent = options.indent ?? ''
  }

  #style(line: string): string {
    const t = this.#theme
    if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('index ')) return t.bold(line)
    if (line.startsWith('@@')) return t.cyan(line)
    if (line.startsWith('+')) return t.green(line)
    if (line.startsWith('-')) return t.red(line)
    return t.dim(line)
  }

  render(width: number): string[] {
    const shown = this.#lines.slice(0, this.#maxLines)
    const out = shown.map((line) => truncateToWidth(`${this.#indent}${this.#style(line)}`, width))
    const hidden = this.#lines.length - shown.length
    if (hidden > 0) out.push(truncateToWidth(this.#theme.dim(`${this.#indent}… ${hidden} more diff lines (Ctrl-O shows all)`), width))
    return out
  }

  invalidate(): void {
    // Nothing cached: lines are styled on every render.
  }
}
