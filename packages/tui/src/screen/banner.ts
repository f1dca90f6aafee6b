/**
 * The banner at the top of the chat: version, model, working directory and approval mode on one
 * line, and where to find help on a second.
 */
import { truncateToWidth, type Component } from '@mariozechner/pi-tui'
import type { Theme } from '../theme.ts'

/** Banner text. */
export interface BannerFacts {
  readonly version: string
  readonly model: string
  readonly cwd: string
  readonly approvals: string
}

/** The two banner lines, unstyled. */
export function bannerLines(facts: BannerFacts): [string, string] {
  return [`dsh ${facts.version} · ${facts.model} · ${facts.cwd} · ${facts.approvals}`, '/help for commands · Enter sends · Shift-Enter new line · Ctrl-C cancels · Ctrl-D exits']
}

/** The banner component. */
export class Banner implements Component {
  readonly #lines: [string, string]
  readonly #theme: Theme
  #cache: { readonly width: number; readonly lines: string[] } | undefined

  constructor(facts: BannerFacts, theme: Theme) {
    this.#lines = bannerLines(facts)
    this.#theme = theme
  }

  render(width: number): string[] {
    if (this.#cache?.width === width) return this.#cache.lines
    const [first, second] = this.#lines
    const lines = [truncateToWidth(this.#theme.bold(first), width), truncateToWidth(this.#theme.dim(second), width)]
    this.#cache = { width, lines }
    return lines
  }

  invalidate(): void {
    this.#cache = undefined
  }
}
