/**
 * The session picker (`dsh chat --resume` without an id, `/resume`): stored sessions newest first,
 * each with its title, how long ago it changed, its turns and its directory. Typing filters by
 * title, id or directory; Enter picks, Esc cancels.
 */
import { matchesKey, SelectList, truncateToWidth, type Component, type SelectItem } from '@mariozechner/pi-tui'
import { relativeTime } from '../sessions/relative-time.ts'
import type { SessionRow } from '../sessions/session-rows.ts'
import type { Theme } from '../theme.ts'
import { oneLine } from '../text-safety.ts'

/** Rows shown at once. */
export const pickerRows = 12

/** The picker; `done` receives the chosen id, or undefined when cancelled. */
export class SessionPicker implements Component {
  readonly #items: SelectItem[]
  readonly #theme: Theme
  readonly #done: (id: string | undefined) => void
  #list: SelectList
  #filter = ''

  constructor(options: { readonly rows: readonly SessionRow[]; readonly theme: Theme; readonly now: Date; readonly shortPath: (path: string) => string; readonly done: (id: string | undefined) => void }) {
    this.#theme = options.theme
    this.#done = options.done
    this.#items = options.rows.map((row) => ({
      value: row.id,
      label: oneLine(row.title, 70),
      description: [relativeTime(row.updatedAt, options.now), ...(row.turns === undefined ? [] : [`${row.turns} ${row.turns === 1 ? 'turn' : 'turns'}`]), options.shortPath(row.cwd), row.id].join(' · '),
    }))
    this.#list = this.#build()
  }

  #build(): SelectList {
    const wanted = this.#filter.toLowerCase()
    const items = this.#items.filter((item) => wanted === '' || `${item.label} ${item.description ?? ''}`.toLowerCase().includes(wanted))
    // pi-tui's list says "No matching commands" when the filter leaves nothing: say what is meant.
    const theme = { ...this.#theme.select, noMatch: () => this.#theme.dim('  no session matches the filter') }
    const list = new SelectList(items, pickerRows, theme, { minPrimaryColumnWidth: 20, maxPrimaryColumnWidth: 50 })
    list.onSelect = (item) => this.#done(item.value)
    list.onCancel = () => this.#done(undefined)
    return list
  }

  handleInput(data: string): void {
    if (matchesKey(data, 'backspace')) {
      this.#filter = this.#filter.slice(0, -1)
      this.#list = this.#build()
      return
    }
    if (data.length === 1 && data >= ' ' && data !== '\x7f') {
      this.#filter += data
      this.#list = this.#build()
      return
    }
    this.#list.handleInput(data)
  }

  render(width: number): string[] {
    const t = this.#theme
    const head = `Resume a session${this.#filter === '' ? ' (type to filter)' : `: ${this.#filter}`}`
    return [t.cyan('─'.repeat(Math.max(1, width))), truncateToWidth(t.bold(head), width), ...this.#list.render(width), truncateToWidth(t.dim('↑/↓ choose · Enter resume · Esc cancel'), width)]
  }

  invalidate(): void {
    this.#list.invalidate()
  }
}
