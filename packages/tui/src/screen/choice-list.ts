/**
 * A modal list of answers (`ChatView.choose`): a title, the lines that say what a choice does
 * (whole, cut to the width), then the choices; ↑/↓ choose, Enter picks, Esc cancels.
 */
import { SelectList, truncateToWidth, type Component } from '@mariozechner/pi-tui'
import type { ChoiceRequest } from '../chat-view.ts'
import type { Theme } from '../theme.ts'
import { oneLine, sanitize } from '../text-safety.ts'

/** Choices shown at once. */
const listRows = 10

/** The list; `done` receives the chosen value, or undefined when cancelled. */
export class ChoiceList implements Component {
  readonly #request: ChoiceRequest
  readonly #theme: Theme
  readonly #list: SelectList

  constructor(options: { readonly request: ChoiceRequest; readonly theme: Theme; readonly done: (value: string | undefined) => void }) {
    this.#request = options.request
    this.#theme = options.theme
    const items = options.request.items.map((item) => ({ value: item.value, label: oneLine(item.label, 70), ...(item.description === undefined ? {} : { description: oneLine(item.description, 120) }) }))
    this.#list = new SelectList(items, listRows, options.theme.select, { minPrimaryColumnWidth: 20, maxPrimaryColumnWidth: 60 })
    this.#list.onSelect = (item) => options.done(item.value)
    this.#list.onCancel = () => options.done(undefined)
  }

  handleInput(data: string): void {
    this.#list.handleInput(data)
  }

  render(width: number): string[] {
    const t = this.#theme
    const lines = (this.#request.lines ?? []).map((line) => truncateToWidth(sanitize(line), width))
    return [t.cyan('─'.repeat(Math.max(1, width))), truncateToWidth(t.bold(sanitize(this.#request.title)), width), ...lines, ...this.#list.render(width), truncateToWidth(t.dim('↑/↓ choose · Enter pick · Esc cancel'), width)]
  }

  invalidate(): void {
    this.#list.invalidate()
  }
}
