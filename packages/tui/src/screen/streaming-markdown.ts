/**
 * An answer rendered as markdown while it streams. Finished blocks are frozen as their own cached
 * markdown components and only the unfinished tail is parsed again when text arrives, so a long
 * answer costs the same per chunk as a short one. A block ends at a blank line outside a code
 * fence (or at a closed fence), once the next line shows it does not continue a list (a list
 * marker or an indented line keeps it open: blank lines inside a list belong to it).
 */
import { Container, Markdown, type MarkdownTheme } from '@mariozechner/pi-tui'
import { sanitize } from '../text-safety.ts'

const fence = /^\s{0,3}(```|~~~)/
const continuesList = /^(\s|[-*+]\s|\d+[.)]\s)/
const blank = (line: string | undefined): boolean => line !== undefined && line.trim() === ''

/** Streaming markdown. */
export class StreamingMarkdown extends Container {
  readonly #theme: MarkdownTheme
  readonly #tail: Markdown
  #text = ''
  #frozenTo = 0
  #scanned = 0
  #inFence = false
  /** Where the last finished block would end, waiting for the next line to confirm it. */
  #boundary: number | undefined
  /** Lines of the last render, until text arrives or the width changes (every frame renders every answer). */
  #cache: { readonly width: number; readonly lines: string[] } | undefined

  constructor(theme: MarkdownTheme, text = '') {
    super()
    this.#theme = theme
    this.#tail = new Markdown('', 0, 0, theme)
    this.addChild(this.#tail)
    if (text !== '') this.append(text)
  }

  /** All text so far. */
  get text(): string {
    return this.#text
  }

  /** Adds a streamed delta. */
  append(delta: string): void {
    this.#cache = undefined
    this.#text += sanitize(delta)
    for (let end = this.#text.indexOf('\n', this.#scanned); end >= 0; end = this.#text.indexOf('\n', this.#scanned)) {
      const line = this.#text.slice(this.#scanned, end)
      const start = this.#scanned
      this.#scanned = end + 1
      if (this.#boundary !== undefined && line.trim() !== '') {
        if (!continuesList.test(line)) this.#freeze(this.#boundary)
        this.#boundary = undefined
      }
      if (fence.test(line)) {
        this.#inFence = !this.#inFence
        if (!this.#inFence) this.#boundary = this.#scanned
      } else if (!this.#inFence && line.trim() === '' && start > this.#frozenTo) {
        this.#boundary = this.#scanned
      }
    }
    this.#tail.setText(this.#text.slice(this.#frozenTo))
  }

  #freeze(end: number): void {
    const block = this.#text.slice(this.#frozenTo, end)
    this.#frozenTo = end
    if (block.trim() === '') return
    this.children.splice(this.children.length - 1, 0, new Markdown(block.replace(/\n+$/, ''), 0, 0, this.#theme))
  }

  override render(width: number): string[] {
    if (this.#cache?.width === width) return this.#cache.lines
    const lines: string[] = []
    for (const child of this.children) {
      const rendered = child.render(width)
      // Blocks are separated by one empty line, as the markdown renderer does inside one document.
      if (rendered.length > 0 && lines.length > 0 && !blank(lines.at(-1)) && !blank(rendered[0])) lines.push('')
      for (const line of rendered) lines.push(line)
    }
    while (blank(lines.at(-1))) lines.pop()
    this.#cache = { width, lines }
    return lines
  }

  override invalidate(): void {
    this.#cache = undefined
    super.invalidate()
  }
}
