/**
 * Plain blocks of the transcript: a submitted prompt (marked `›`, long ones shortened), and lines
 * of command output or notices in a tone. Text is sanitised and wrapped to the width.
 */
import { truncateToWidth, wrapTextWithAnsi, type Component } from '@mariozechner/pi-tui'
import type { Tone } from '../chat-view.ts'
import type { Theme } from '../theme.ts'
import { sanitize } from '../text-safety.ts'

/** Lines of a prompt shown before the rest is counted. */
export const shownPromptLines = 6

/** A submitted prompt. */
export class PromptBlock implements Component {
  readonly #lines: string[]
  readonly #theme: Theme

  constructor(text: string, theme: Theme) {
    this.#lines = sanitize(text).split('\n')
    this.#theme = theme
  }

  render(width: number): string[] {
    const t = this.#theme
    const inner = Math.max(1, width - 2)
    const shown = this.#lines.slice(0, shownPromptLines).flatMap((line) => wrapTextWithAnsi(line === '' ? ' ' : line, inner))
    const out = shown.map((line, index) => truncateToWidth(`${index === 0 ? t.bold(t.cyan('›')) : ' '} ${t.bold(line)}`, width))
    const hidden = this.#lines.length - shownPromptLines
    if (hidden > 0) out.push(truncateToWidth(t.dim(`  … ${hidden} more lines`), width))
    return ['', ...out]
  }

  invalidate(): void {
    // Nothing cached.
  }
}

/** Lines of output in a tone. */
export class LinesBlock implements Component {
  readonly #lines: string[]
  readonly #style: (text: string) => string

  constructor(lines: readonly string[], tone: Tone, theme: Theme) {
    this.#lines = lines.map((line) => sanitize(line))
    this.#style = tone === 'notice' ? theme.dim : tone === 'warning' ? theme.yellow : tone === 'error' ? theme.red : (text) => text
  }

  render(width: number): string[] {
    return this.#lines.flatMap((line) => (line === '' ? [''] : wrapTextWithAnsi(line, Math.max(1, width)).map((part) => truncateToWidth(this.#style(part), width))))
  }

  invalidate(): void {
    // Nothing cached.
  }
}
