/**
 * The model's reasoning, dimmed. While it streams, the last few lines show under a `thinking`
 * label; once the answer or a tool call starts it collapses to one line with its size, and the
 * chat's Ctrl-T shows it in full (or collapses it again).
 */
import { truncateToWidth, wrapTextWithAnsi, type Component } from '@mariozechner/pi-tui'
import type { Theme } from '../theme.ts'
import { sanitize } from '../text-safety.ts'

/** Lines of live reasoning shown while it streams. */
export const liveReasoningLines = 4

/** A reasoning block. */
export class ReasoningBlock implements Component {
  readonly #theme: Theme
  #text = ''
  #done = false
  #expanded = false

  constructor(theme: Theme) {
    this.#theme = theme
  }

  append(delta: string): void {
    this.#text += sanitize(delta)
  }

  /** The reasoning ended (the answer or a tool call began). */
  finish(): void {
    this.#done = true
  }

  /** Shows everything or collapses again. */
  setExpanded(expanded: boolean): void {
    this.#expanded = expanded
  }

  render(width: number): string[] {
    const t = this.#theme
    const text = this.#text.trim()
    if (text === '') return []
    const inner = Math.max(1, width - 2)
    const wrapped = text.split('\n').flatMap((line) => wrapTextWithAnsi(line, inner))
    if (this.#done && !this.#expanded) return [truncateToWidth(t.dim(t.italic(`thinking (${wrapped.length} ${wrapped.length === 1 ? 'line' : 'lines'}; Ctrl-T shows it)`)), width)]
    const shown = this.#done ? wrapped : wrapped.slice(-liveReasoningLines)
    return [truncateToWidth(t.dim(t.italic('thinking')), width), ...shown.map((line) => truncateToWidth(t.dim(`  ${line}`), width))]
  }

  invalidate(): void {
    // Nothing cached.
  }
}
