/**
 * The screen's layout on pi-tui: banner, transcript, the pinned checklist, the queued-messages and hint area, the status
 * line, and a bottom slot that holds the editor or, while one is open, a modal (the permission
 * question, the session picker) that takes the keyboard until it closes.
 */
import { Container, Editor, ProcessTerminal, TUI, truncateToWidth, type Component, type Terminal } from '@mariozechner/pi-tui'
import type { TodoItem } from '@dsh/todo'
import type { Theme } from '../theme.ts'
import { oneLine } from '../text-safety.ts'
import type { StatusSnapshot } from '../status/status-snapshot.ts'
import { Banner, type BannerFacts } from './banner.ts'
import { PinnedTodos } from './pinned-todos.ts'
import { StatusLine } from './status-line.ts'

/** Queued messages and a transient hint, between the transcript and the status line. */
class QueueArea implements Component {
  queued: readonly string[] = []
  hint = ''
  readonly #theme: Theme

  constructor(theme: Theme) {
    this.#theme = theme
  }

  render(width: number): string[] {
    const lines = this.queued.map((text) => truncateToWidth(this.#theme.dim(`queued › ${oneLine(text, 200)}`), width))
    if (this.hint !== '') lines.push(truncateToWidth(this.#theme.yellow(this.hint), width))
    return ['', ...lines]
  }

  invalidate(): void {
    // Nothing cached.
  }
}

/** The assembled screen. */
export class ScreenLayout {
  readonly tui: TUI
  readonly transcript = new Container()
  readonly editor: Editor
  readonly status: StatusLine
  readonly #queue: QueueArea
  readonly #todos: PinnedTodos
  readonly #slot = new Container()
  #modal: Component | undefined

  constructor(options: { readonly theme: Theme; readonly banner: BannerFacts; readonly status: StatusSnapshot; readonly now: () => number; readonly terminal?: Terminal }) {
    this.tui = new TUI(options.terminal ?? new ProcessTerminal())
    this.editor = new Editor(this.tui, options.theme.editor, { paddingX: 0, autocompleteMaxVisible: 8 })
    this.status = new StatusLine({ theme: options.theme, now: options.now, status: options.status, waiting: () => this.#modal !== undefined })
    this.#queue = new QueueArea(options.theme)
    this.#todos = new PinnedTodos(options.theme)
    this.tui.addChild(new Banner(options.banner, options.theme))
    this.tui.addChild(this.transcript)
    this.tui.addChild(this.#todos)
    this.tui.addChild(this.#queue)
    this.tui.addChild(this.status)
    this.tui.addChild(this.#slot)
    this.#slot.addChild(this.editor)
    this.tui.setFocus(this.editor)
  }

  /** True while a modal holds the keyboard. */
  get modalOpen(): boolean {
    return this.#modal !== undefined
  }

  /** Shows a modal in place of the editor (the editor keeps its text). */
  openModal(component: Component): void {
    this.#slot.clear()
    this.#slot.addChild(component)
    this.#modal = component
    this.tui.setFocus(component)
    this.tui.requestRender()
  }

  /** Puts the editor back. */
  closeModal(component: Component): void {
    if (this.#modal !== component) return
    this.#modal = undefined
    this.#slot.clear()
    this.#slot.addChild(this.editor)
    this.tui.setFocus(this.editor)
    this.tui.requestRender()
  }

  /** The checklist pinned above the queue area (empty: none). */
  setTodos(items: readonly TodoItem[]): void {
    this.#todos.set(items)
    this.tui.requestRender()
  }

  setQueued(queued: readonly string[]): void {
    this.#queue.queued = [...queued]
    this.tui.requestRender()
  }

  setHint(hint: string): void {
    if (this.#queue.hint === hint) return
    this.#queue.hint = hint
    this.tui.requestRender()
  }
}
