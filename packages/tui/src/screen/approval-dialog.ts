/**
 * The permission question as a modal select in place of the editor: the question, the whole code
 * (every line and character, wrapped to the width), where it runs and why it asks, and the answers
 * (arrow keys and Enter; Esc rejects). Code taller than the room scrolls inside the dialog
 * (PgUp/PgDn, Home/End), which says which lines are shown; an "allow" answer is refused until
 * every line has been on screen (rejecting always works). Neither typing nor pasting can
 * answer it. A person who was writing a message when the question appeared goes on writing it:
 * printable keys, and an Enter or Backspace within {@link typingPauseMs} of the last one, go to
 * the message being written (Enter queues it, as it would with the editor shown), and so do
 * bracketed pastes; the question takes keys again after a pause. Keys other than those that
 * arrive within {@link settleMs} of the question appearing are dropped. Choosing the "tell the
 * model" answer opens a one-line note input (Enter sends, Esc goes back).
 */
import { decodeKittyPrintable, Input, matchesKey, SelectList, truncateToWidth, wrapTextWithAnsi, type Component, type Focusable } from '@mariozechner/pi-tui'
import type { PermissionDecision } from '@dsh/contracts'
import type { PermissionQuestion } from '../approvals/permission-question.ts'
import type { Theme } from '../theme.ts'

/** Keys arriving sooner than this after the question appears are dropped (or go to the message). */
export const settleMs = 250

/** After a typed key, Enter and Backspace belong to the message until the keyboard rests this long. */
export const typingPauseMs = 600

// oxlint-disable-next-line no-control-regex -- printable means no control characters at all.
const controlCharacter = /[\x00-\x1f\x7f]/

/** True for keys that write text: a character or a burst of them, in either keyboard protocol. */
function printable(data: string): boolean {
  return decodeKittyPrintable(data) !== undefined || (data !== '' && !controlCharacter.test(data))
}

/** A pending question on screen. */
export class ApprovalDialog implements Component, Focusable {
  readonly #question: PermissionQuestion
  readonly #theme: Theme
  readonly #list: SelectList
  readonly #note = new Input()
  readonly #shownAt: number
  readonly #now: () => number
  readonly #answer: (decision: PermissionDecision) => void
  readonly #typeAhead: (data: string) => void
  #noting = false
  #inPaste = false
  /** Until when Enter and Backspace still belong to the message being written. */
  #typingUntil = 0
  #typedAhead = false
  /** First shown line of the wrapped code when it does not fit. */
  #offset = 0
  /** Wrapped code lines that have been on screen, at {@link #seenWidth}. */
  #seen = new Set<number>()
  #seenWidth = -1
  /** Once every line was on screen (at any width), allowing is possible for good. */
  #wholeSeen = false
  /** Set when an allow was chosen before the whole code was seen. */
  #unseenWarning = false
  /** Rows of code shown at the last render, and their total. */
  #room = 0
  #total = 0
  focused = false

  readonly #rows: () => number

  /**
   * `typeAhead` receives the keys of a message being written while the question is open (the
   * editor's input); `rows` is the terminal's height, which the question always fits in.
   */
  constructor(options: { readonly question: PermissionQuestion; readonly theme: Theme; readonly now: () => number; readonly answer: (decision: PermissionDecision) => void; readonly typeAhead: (data: string) => void; readonly rows: () => number }) {
    this.#question = options.question
    this.#theme = options.theme
    this.#now = options.now
    this.#shownAt = options.now()
    this.#answer = options.answer
    this.#typeAhead = options.typeAhead
    this.#rows = options.rows
    this.#list = new SelectList(
      options.question.options.map((option, index) => ({ value: String(index), label: `${index + 1}. ${option.label}` })),
      options.question.options.length,
      options.theme.select,
    )
    this.#list.onSelect = (item) => this.#choose(Number(item.value))
    this.#list.onCancel = () => this.#answer({ kind: 'reject' })
    this.#note.onSubmit = (value) => this.#answer({ kind: 'reject', ...(value.trim() === '' ? {} : { note: value.trim() }) })
    this.#note.onEscape = () => {
      this.#noting = false
    }
  }

  #choose(index: number): void {
    const option = this.#question.options[index]
    if (option === undefined) return
    if (option.decision.kind !== 'reject' && !this.#wholeSeen) {
      this.#unseenWarning = true
      return
    }
    if (option.withNote === true) this.#noting = true
    else this.#answer(option.decision)
  }

  handleInput(data: string): void {
    if (this.#noting) {
      this.#note.focused = this.focused
      if (matchesKey(data, 'escape')) this.#noting = false
      else this.#note.handleInput(data)
      return
    }
    const now = this.#now()
    if (data.includes('\x1b[200~')) this.#inPaste = true
    const writing = this.#inPaste || printable(data) || (now < this.#typingUntil && (matchesKey(data, 'enter') || matchesKey(data, 'backspace')))
    if (this.#inPaste && data.includes('\x1b[201~')) this.#inPaste = false
    if (writing) {
      this.#typeAhead(data)
      this.#typingUntil = now + typingPauseMs
      this.#typedAhead = true
      return
    }
    if (now < this.#typingUntil || now - this.#shownAt < settleMs) return
    if (this.#scroll(data)) return
    this.#list.handleInput(data)
  }

  /** PgUp/PgDn/Home/End move the code window; true when the key was one of them. */
  #scroll(data: string): boolean {
    const page = Math.max(1, this.#room - 1)
    const last = Math.max(0, this.#total - this.#room)
    if (matchesKey(data, 'pageDown')) this.#offset = Math.min(last, this.#offset + page)
    else if (matchesKey(data, 'pageUp')) this.#offset = Math.max(0, this.#offset - page)
    else if (matchesKey(data, 'home')) this.#offset = 0
    else if (matchesKey(data, 'end')) this.#offset = last
    else return false
    return true
  }

  render(width: number): string[] {
    const t = this.#theme
    const wrap = (text: string): string[] => wrapTextWithAnsi(text, Math.max(1, width))
    const rule = t.yellow('─'.repeat(Math.max(1, width)))
    const head = [rule, ...wrap(this.#question.title).map((line) => t.bold(t.yellow(line))), ...this.#question.context.flatMap(wrap).map((line) => t.dim(line))]
    const lines = [...head, ...this.#code(width, head.length)]
    if (this.#noting) {
      this.#note.focused = this.focused
      lines.push(truncateToWidth('Tell the model what to do instead (Enter sends, Esc goes back):', width), ...this.#note.render(width))
    } else {
      const hint = this.#unseenWarning && !this.#wholeSeen ? t.yellow(`Allowing needs every line on screen once: ${this.#unseenHint()}`) : t.dim(`↑/↓ choose · Enter confirm · Esc reject${this.#typedAhead ? ' · what you type goes to your next message' : ''}`)
      lines.push(...this.#list.render(width), truncateToWidth(hint, width))
    }
    return lines
  }

  /**
   * Where the lines not yet shown are. Keys that arrive faster than the screen is drawn (key
   * repeat, a loaded machine) can skip a window's worth of lines, so they may lie above.
   */
  #unseenHint(): string {
    let first = 0
    while (this.#seen.has(first)) first += 1
    return first < this.#offset ? `line ${first + 1} not shown yet, PgUp` : 'PgDn to read on'
  }

  /** The code wrapped to `width`: all of it when it fits, else a window with a line saying where it is. */
  #code(width: number, headRows: number): string[] {
    const t = this.#theme
    const wrapped = this.#question.detail.flatMap((line) => wrapTextWithAnsi(line, Math.max(1, width)))
    if (width !== this.#seenWidth) {
      this.#seen = new Set()
      this.#seenWidth = width
    }
    const room = Math.max(3, this.#rows() - headRows - this.#question.options.length - 3)
    this.#total = wrapped.length
    if (wrapped.length <= room) {
      this.#room = wrapped.length
      this.#wholeSeen = true
      return wrapped.map((line) => t.dim(line))
    }
    const shown = room - 1
    this.#room = shown
    this.#offset = Math.min(this.#offset, wrapped.length - shown)
    for (let index = this.#offset; index < this.#offset + shown; index += 1) this.#seen.add(index)
    if (this.#seen.size === wrapped.length) this.#wholeSeen = true
    const end = this.#offset + shown
    const where = `lines ${this.#offset + 1}–${end} of ${wrapped.length} · PgUp/PgDn scroll${end < wrapped.length ? ' · more below' : ''}`
    return [...wrapped.slice(this.#offset, end).map((line) => t.dim(line)), t.yellow(truncateToWidth(where, width))]
  }

  invalidate(): void {
    this.#list.invalidate()
  }
}
