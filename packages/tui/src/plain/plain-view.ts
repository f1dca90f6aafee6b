/**
 * The plain mode's view: answer text streamed as it arrives, each tool call as `→ name summary`
 * and a `✓`/`✗` result line, reasoning behind `thinking:` (only when a person watches), command
 * output as lines, errors on the error stream. No escape codes; the cursor column is tracked so
 * every notice and prompt starts on a fresh line. When the output is not a terminal, each model
 * attempt's answer is held until the attempt is complete: printed text cannot be taken back, and a
 * retried attempt must not leave a void partial answer in a pipe or a file.
 */
import type { Message } from '@dsh/contracts'
import type { AgentProgress, TurnResult } from '@dsh/runtime'
import { COMPACTED_NOTE } from '../compacted-note.ts'
import { attachedLines } from '../attached-lines.ts'
import type { ChatView, Tone } from '../chat-view.ts'
import type { SessionRow } from '../sessions/session-rows.ts'
import { problemText, sanitize } from '../text-safety.ts'
import { progressText, todosOfData, TODO_TOOL } from '@dsh/todo'
import { todoPlainLines } from '../screen/todo-block.ts'
import { toolLabel } from '../tool-label.ts'
import { argumentSummary, outcomeSummary } from '../tool-summary.ts'

/** Where the view writes. */
export interface PlainViewOptions {
  readonly out: NodeJS.WritableStream
  readonly err: NodeJS.WritableStream
  /** Show reasoning (a person watches the output). */
  readonly showReasoning: boolean
  /** Asks for a line (the session picker's answer); undefined when input ended. */
  readonly readLine: (prompt: string) => Promise<string | undefined>
  /** Hold each attempt's streamed text until the attempt ends (a retry then drops it unseen). */
  readonly holdAttempts?: boolean
}

/** Plain-text rendering of the chat. */
export class PlainView implements ChatView {
  readonly #options: PlainViewOptions
  #atLineStart = true
  #block: 'none' | 'reasoning' | 'text' = 'none'
  /** Streamed text of the running attempt not yet written (only with `holdAttempts`). */
  #held = ''
  /** Whether the cursor was at a line start when the held text began. */
  #heldFromLineStart = true

  constructor(options: PlainViewOptions) {
    this.#options = options
  }

  progress(event: AgentProgress): void {
    switch (event.type) {
      case 'step-start':
        this.#flush()
        this.#block = 'none'
        return
      case 'retry':
        if (!event.discarded) return
        this.#block = 'none'
        if (this.#options.holdAttempts === true) {
          // Nothing of the failed attempt was written: drop it unseen.
          this.#held = ''
          this.#atLineStart = this.#heldFromLineStart
          this.#line(`[the answer broke off (${sanitize(event.detail)}); retrying, attempt ${event.attempt} of ${event.maxAttempts}]`)
          return
        }
        // Printed text cannot be taken back: say plainly that what came before is void.
        this.#line(`[the answer broke off (${sanitize(event.detail)}); retrying, attempt ${event.attempt} of ${event.maxAttempts}: the partial answer above is discarded]`)
        return
      case 'reasoning':
        if (!this.#options.showReasoning) return
        if (this.#block !== 'reasoning') {
          if (!this.#atLineStart) this.#stream('\n')
          this.#stream('thinking: ')
          this.#block = 'reasoning'
        }
        this.#stream(sanitize(event.text))
        return
      case 'text':
        if (this.#block === 'reasoning' && !this.#atLineStart) this.#stream('\n')
        this.#block = 'text'
        this.#stream(sanitize(event.text))
        return
      case 'tool-start':
        this.#flush()
        this.#block = 'none'
        this.#line(`→ ${toolLabel(sanitize(event.name))} ${event.name === TODO_TOOL ? '' : argumentSummary(event.arguments)}`.trimEnd())
        return
      case 'tool-output':
        // The line mode prints a summary per call; live output is the full-screen UI's.
        return
      case 'tool-end': {
        const summary = outcomeSummary(event.outcome, { tool: event.name })
        // A checklist says how far it got, then its items.
        const todos = event.name === TODO_TOOL && !event.outcome.isError ? todosOfData({ todos: event.outcome.meta?.['todos'] }) : undefined
        this.#line(`  ${summary.ok ? '✓' : '✗'} ${todos === undefined ? summary.text : progressText(todos)}`)
        for (const line of todos === undefined ? [] : todoPlainLines(todos, '    ')) this.#line(line)
        return
      }
      case 'attached':
        for (const line of attachedLines(event.files)) this.#line(line)
        return
      case 'compacted':
        this.#flush()
        this.#block = 'none'
        this.#line(COMPACTED_NOTE)
        return
      case 'turn-end':
        this.#block = 'none'
        this.newline()
        return
      default: {
        const unreachable: never = event
        return unreachable
      }
    }
  }

  promptStarted(): void {
    this.#block = 'none'
  }

  turnEnded(result: TurnResult): void {
    this.newline()
    if (result.reason === 'cancelled') this.#line('cancelled')
    else if (result.reason === 'max-steps') this.#line('stopped at the step limit; send another message to continue')
    else if (result.reason === 'blocked') this.#line('the turn was blocked before the model was called')
    else if (result.reason === 'error') this.error(result.error ?? 'the turn failed')
  }

  lines(lines: readonly string[], _tone?: Tone): void {
    for (const line of lines) this.#line(line)
  }

  diff(text: string): void {
    this.lines(sanitize(text).replace(/\n$/, '').split('\n'))
  }

  error(problem: unknown): void {
    this.newline()
    this.#options.err.write(`error: ${sanitize(problemText(problem))}\n`)
  }

  replay(messages: readonly Message[]): void {
    const prompts = messages.filter((message) => message.role === 'user' && message.source.kind === 'user').length
    this.#line(`(${messages.length} visible messages, ${prompts} typed prompts)`)
  }

  /** The line mode has no modal lists: commands that offer one answer in text instead. */
  readonly modalLists = false

  choose(): Promise<string | undefined> {
    return Promise.resolve(undefined)
  }

  async pickSession(rows: readonly SessionRow[]): Promise<string | undefined> {
    if (rows.length === 0) {
      this.#line('no stored sessions')
      return undefined
    }
    rows.slice(0, 20).forEach((row, index) => this.#line(`${String(index + 1).padStart(3)}. ${row.id}  ${sanitize(row.title)}`))
    const answer = (await this.#options.readLine('session number or id: '))?.trim()
    this.#atLineStart = true
    if (answer === undefined || answer === '') return undefined
    const index = Number(answer)
    return Number.isInteger(index) && index >= 1 && index <= rows.length ? rows[index - 1]?.id : answer
  }

  statusChanged(): void {
    // The plain mode has no status line; /status prints the details.
  }

  queueChanged(): void {
    // Plain input is read one line at a time, so nothing is ever queued behind a running step.
  }

  restoreDraft(): void {
    // The line reader has no editable draft; the rewound prompt is still in the terminal's scrollback.
  }

  /** Ends the current line if the cursor is not at its start (held text is written first). */
  newline(): void {
    this.#flush()
    if (!this.#atLineStart) this.#write('\n')
  }

  /** Records that an input line left the cursor at a line start. */
  markLineStart(): void {
    this.#atLineStart = true
    this.#block = 'none'
  }

  #line(text: string): void {
    this.newline()
    this.#write(`${text}\n`)
  }

  /** Streamed answer or reasoning text: written now, or held until the attempt ends. */
  #stream(text: string): void {
    if (this.#options.holdAttempts !== true) {
      this.#write(text)
      return
    }
    if (text === '') return
    if (this.#held === '') this.#heldFromLineStart = this.#atLineStart
    this.#held += text
    this.#atLineStart = text.endsWith('\n')
  }

  /** Writes the held text of an attempt that ended (no-op when nothing is held). */
  #flush(): void {
    if (this.#held === '') return
    const held = this.#held
    this.#held = ''
    this.#options.out.write(held)
  }

  #write(text: string): void {
    if (text === '') return
    this.#options.out.write(text)
    this.#atLineStart = text.endsWith('\n')
  }
}
