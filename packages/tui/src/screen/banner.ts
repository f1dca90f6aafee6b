/**
 * The banner at the top of the chat: version, model, working directory and approval mode on one
 * line, and where to find help on a second. In a narrow terminal each line wraps between its
 * facts instead of cutting the last ones off.
 */
import type { Component } from '@mariozechner/pi-tui'
import type { Theme } from '../theme.ts'
import { wrapParts } from './fit-parts.ts'

/** Banner text. */
export interface BannerFacts {
  readonly version: string
  readonly model: string
  readonly cwd: string
  readonly approvals: string
}

/** The facts of the two banner lines, unstyled. */
export function bannerParts(facts: BannerFacts): [string[], string[]] {
  return [[`dsh ${facts.version}`, facts.model, facts.cwd, facts.approvals], ['/help for commands', 'Enter sends', 'Shift-Enter new line', 'Ctrl-C cancels', 'Ctrl-D exits']]
}

/** The banner component. */
export class Banner implements Component {
  readonly #parts: [string[], string[]]
  readonly #theme: Theme
  #cache: { readonly width: number; readonly lines: string[] } | undefined

  constructor(facts: BannerFacts, theme: Theme) {
    this.#parts = bannerParts(facts)
    this.#theme = theme
  }

  render(width: number): string[] {
    if (this.#cache?.width === width) return this.#cache.lines
    const [facts, keys] = this.#parts
    const lines = [...wrapParts(facts, width).map((line) => this.#theme.bold(line)), ...wrapParts(keys, width).map((line) => this.#theme.dim(line))]
    this.#cache = { width, lines }
    return lines
  }

  invalidate(): void {
    this.#cache = undefined
  }
}
