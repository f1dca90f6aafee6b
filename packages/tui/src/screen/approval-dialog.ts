/**
 * The permission question as a modal select in place of the editor: the question, the code or
 * arguments, and the answers (arrow keys and Enter; Esc rejects). Neither typing nor pasting can
 * answer it. A person who was writing a message when the question appeared goes on writing it:
 * printable keys, and an Enter or Backspace within {@link typingPauseMs} of the last one, go to
 * the message being written (Enter queues it, as it would with the editor shown), and so do
 * bracketed pastes; the question takes keys again after a pause. Keys other than those that
 * arrive within {@link settleMs} of the question appearing are dropped. Choosing the "tell the
 * model" answer opens a one-line note input (Enter sends, Esc goes back).
 */
import { decodeKittyPrintable, Input, matchesKey, SelectList, truncateToWidth, type Component, type Focusable } from '@mariozechner/pi-tui'
import type { PermissionDecision } from '@dsh/contracts'
import { moreLines, type PermissionQuestion } from '../approvals/permission-question.ts'
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
    this.#list.handleInput(data)
  }

  render(width: number): string[] {
    const t = this.#theme
    const rule = t.yellow('─'.repeat(Math.max(1, width)))
    const lines = [rule, truncateToWidth(t.bold(t.yellow(this.#question.title)), width), ...this.#detail().map((line) => truncateToWidth(t.dim(line), width))]
    if (this.#noting) {
      this.#note.focused = this.focused
      lines.push(truncateToWidth('Tell the model what to do instead (Enter sends, Esc goes back):', width), ...this.#note.render(width))
    } else {
      lines.push(...this.#list.render(width), truncateToWidth(t.dim(`↑/↓ choose · Enter confirm · Esc reject${this.#typedAhead ? ' · what you type goes to your next message' : ''}`), width))
    }
    return lines
  }

  /** The detail cut so the title, the answers and the status line stay on screen (at least 3 lines of it). */
  #detail(): readonly string[] {
    const { detail, detailLines, options } = this.#question
    const room = Math.max(3, this.#rows() - options.length - 5)
    if (detail.length <= room) return detail
    return [...detail.slice(0, room - 1), moreLines(detailLines - (room - 1))]
  }

  invalidate(): void {
    this.#list.invalidate()
  }
}
