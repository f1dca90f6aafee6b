/**
 * Tools a person turned off for one session (`/mcp disable NAME` in the chat): the tools whose
 * names start with a hidden prefix leave the requests of that session from its next step and a
 * call of one (from an earlier step's memory) is refused with the way back. The filtered list is
 * the same frozen array while neither the registry's list nor the hidden set changes, so the
 * request prefix stays cacheable.
 */
import type { WireTool } from '@dsh/contracts'

/** What a hidden tool's call is told, and what turns it back on. */
export interface HiddenPrefix {
  /** Tool-name prefix (`mcp__github__`). */
  readonly prefix: string
  /** How the person turns it back on (`/mcp enable github`), quoted in the refusal. */
  readonly enable: string
}

/** The hidden tools of one session. */
export class ToolVisibility {
  #hidden: readonly HiddenPrefix[] = []
  #memo: { readonly source: readonly WireTool[]; readonly hidden: readonly HiddenPrefix[]; readonly list: readonly WireTool[] } | undefined

  /** Hides every tool whose name starts with `entry.prefix`; false when it was hidden already. */
  hide(entry: HiddenPrefix): boolean {
    if (this.#hidden.some((known) => known.prefix === entry.prefix)) return false
    this.#hidden = [...this.#hidden, entry]
    return true
  }

  /** Shows the prefix's tools again; false when it was not hidden. */
  show(prefix: string): boolean {
    const next = this.#hidden.filter((known) => known.prefix !== prefix)
    if (next.length === this.#hidden.length) return false
    this.#hidden = next
    return true
  }

  /** True while `prefix` is hidden. */
  isHidden(prefix: string): boolean {
    return this.#hidden.some((known) => known.prefix === prefix)
  }

  /** The entry hiding `name`, or undefined when the tool is visible. */
  hiding(name: string): HiddenPrefix | undefined {
    return this.#hidden.find((known) => name.startsWith(known.prefix))
  }

  /** `tools` without the hidden ones (the same array when nothing is hidden). */
  filter(tools: readonly WireTool[]): readonly WireTool[] {
    if (this.#hidden.length === 0) return tools
    const memo = this.#memo
    if (memo !== undefined && memo.source === tools && memo.hidden === this.#hidden) return memo.list
    const list = Object.freeze(tools.filter((tool) => this.hiding(tool.function.name) === undefined))
    this.#memo = { source: tools, hidden: this.#hidden, list }
    return list
  }
}
