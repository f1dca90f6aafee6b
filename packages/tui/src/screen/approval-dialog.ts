/**
 * The permission question as a modal select in place of the editor: the question, the code or
 * arguments, and the answers (arrow keys and Enter; Esc rejects). Pasted text never answers it:
 * bracketed pastes are dropped, and so is every key that arrives within {@link settleMs} of the
 * question appearing (type-ahead and unbracketed pastes arrive in such bursts). Choosing the
 * "tell the model" answer opens a one-line note input (Enter sends, Esc goes back).
 */
import { Input, matchesKey, SelectList, truncateToWidth, type Component, type Focusable } from '@mariozechner/pi-tui'
import type { PermissionDecision } from '@dsh/contracts'
import type { PermissionQuestion } from '../approvals/permission-question.ts'
import type { Theme } from '../theme.ts'

/** Keys arriving sooner than this after the question appears are dropped. */
export const settleMs = 250

/** A pending question on screen. */
export class ApprovalDialog implements Component, Focusable {
  readonly #question: PermissionQuestion
  readonly #theme: Theme
  readonly #list: SelectList
  readonly #note = new Input()
  readonly #shownAt: number
  readonly #now: () => number
  readonly #answer: (decision: PermissionDecision) => void
  #noting = false
  #inPaste = false
  focused = false

  constructor(options: { readonly question: PermissionQuestion; readonly theme: Theme; readonly now: () => number; readonly answer: (decision: PermissionDecision) => void }) {
    this.#question = options.question
    this.#theme = options.theme
    this.#now = options.now
    this.#shownAt = options.now()
    this.#answer = options.answer
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
    if (data.includes('\x1b[200~')) this.#inPaste = true
    if (this.#inPaste) {
      if (data.includes('\x1b[201~')) this.#inPaste = false
      return
    }
    if (this.#now() - this.#shownAt < settleMs) return
    this.#list.handleInput(data)
  }

  render(width: number): string[] {
    const t = this.#theme
    const rule = t.yellow('─'.repeat(Math.max(1, width)))
    const lines = [rule, truncateToWidth(t.bold(t.yellow(this.#question.title)), width), ...this.#question.detail.map((line) => truncateToWidth(t.dim(line), width))]
    if (this.#noting) {
      this.#note.focused = this.focused
      lines.push(truncateToWidth('Tell the model what to do instead (Enter sends, Esc goes back):', width), ...this.#note.render(width))
    } else {
      lines.push(...this.#list.render(width), truncateToWidth(t.dim('↑/↓ choose · Enter confirm · Esc reject'), width))
    }
    return lines
  }

  invalidate(): void {
    this.#list.invalidate()
  }
}
