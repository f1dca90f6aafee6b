/**
 * Plain blocks of the transcript: a submitted prompt (marked `›`, long ones shortened), and lines
 * of command output or notices in a tone. Text is sanitised and wrapped to the width; the lines
 * of the last width are kept, since every frame renders the whole transcript.
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
  #cache: { readonly width: number; readonly lines: string[] } | undefined

  constructor(text: string, theme: Theme) {
    this.#lines = sanitize(text).split('\n')
    this.#theme = theme
  }

  render(width: number): string[] {
    if (this.#cache?.width === width) return this.#cache.lines
    const t = this.#theme
    const inner = Math.max(1, width - 2)
    const shown = this.#lines.slice(0, shownPromptLines).flatMap((line) => wrapTextWithAnsi(line === '' ? ' ' : line, inner))
    const out = shown.map((line, index) => truncateToWidth(`${index === 0 ? t.bold(t.cyan('›')) : ' '} ${t.bold(line)}`, width))
    const hidden = this.#lines.length - shownPromptLines
    if (hidden > 0) out.push(truncateToWidth(t.dim(`  … ${hidden} more lines`), width))
    this.#cache = { width, lines: ['', ...out] }
    return this.#cache.lines
  }

  invalidate(): void {
    this.#cache = undefined
  }
}

/** Lines of output in a tone. */
export class LinesBlock implements Component {
  readonly #lines: string[]
  readonly #style: (text: string) => string
  #cache: { readonly width: number; readonly lines: string[] } | undefined

  constructor(lines: readonly string[], tone: Tone, theme: Theme) {
    this.#lines = lines.map((line) => sanitize(line))
    this.#style = tone === 'notice' ? theme.dim : tone === 'warning' ? theme.yellow : tone === 'error' ? theme.red : (text) => text
  }

  render(width: number): string[] {
    if (this.#cache?.width === width) return this.#cache.lines
    const lines = this.#lines.flatMap((line) => (line === '' ? [''] : wrapTextWithAnsi(line, Math.max(1, width)).map((part) => truncateToWidth(this.#style(part), width))))
    this.#cache = { width, lines }
    return lines
  }

  invalidate(): void {
    this.#cache = undefined
  }
}
