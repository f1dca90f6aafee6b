/**
 * Renders an agent's live progress in the terminal: answer text streamed as it arrives, each tool
 * call as `→ name summary` followed by a `✓`/`✗` result line, reasoning (when shown) dimmed behind
 * a `thinking:` label on lines of its own, and how a turn ended when it did not complete. It also
 * keeps track of the cursor column so notices and prompts always start on a fresh line.
 */
import type { AgentProgress, TurnResult } from '@dsh/runtime'
import { isTty, sanitize, type Styles } from './ansi.ts'
import { argumentSummary, outcomeSummary } from './tool-summary.ts'

/** Where the renderer writes, and how. */
export interface RendererOptions {
  /** Output stream (the chat's stdout). */
  readonly out: NodeJS.WritableStream
  /** Error lines (the chat's stderr; the same screen in a terminal). */
  readonly err: NodeJS.WritableStream
  /** Styles (plain when colour is off). */
  readonly styles: Styles
  /** Show the model's reasoning (dimmed); off for piped output. */
  readonly showReasoning: boolean
}

/** The message of a caught value. */
export function problemText(problem: unknown): string {
  if (problem instanceof Error) return problem.message
  return typeof problem === 'string' ? problem : String(problem)
}

/** Streams progress events to the terminal. */
export class ChatRenderer {
  readonly #options: RendererOptions
  #atLineStart = true
  #block: 'none' | 'reasoning' | 'text' = 'none'

  constructor(options: RendererOptions) {
    this.#options = options
  }

  /** The styles in use. */
  get styles(): Styles {
    return this.#options.styles
  }

  /** Renders one progress event. */
  handle(event: AgentProgress): void {
    const { styles } = this.#options
    switch (event.type) {
      case 'step-start':
        this.#block = 'none'
        return
      case 'reasoning':
        if (!this.#options.showReasoning) return
        if (this.#block !== 'reasoning') {
          this.newline()
          this.#write(styles.dim('thinking: '))
          this.#block = 'reasoning'
        }
        this.#write(styles.dim(sanitize(event.text)))
        return
      case 'text':
        if (this.#block === 'reasoning') this.newline()
        this.#block = 'text'
        this.#write(sanitize(event.text))
        return
      case 'tool-start':
        this.#block = 'none'
        this.line(`${styles.cyan(`→ ${sanitize(event.name)}`)} ${argumentSummary(event.arguments)}`.trimEnd())
        return
      case 'tool-end': {
        const summary = outcomeSummary(event.outcome)
        this.line(`  ${summary.ok ? styles.green('✓') : styles.red('✗')} ${summary.ok ? summary.text : styles.red(summary.text)}`)
        return
      }
      case 'turn-end':
        this.#block = 'none'
        this.newline()
        return
      default:
        // Progress kinds added later are not shown until the chat learns to render them.
        return
    }
  }

  /** Reports how a turn ended when it did not simply complete. */
  turnResult(result: TurnResult): void {
    const { styles } = this.#options
    if (result.reason === 'cancelled') this.line(styles.yellow('cancelled'))
    else if (result.reason === 'max-steps') this.line(styles.yellow('stopped at the step limit; send another message to continue'))
    else if (result.reason === 'blocked') this.line(styles.yellow('the turn was blocked before the model was called'))
    else if (result.reason === 'error') this.error(result.error ?? 'the turn failed')
  }

  /** Writes an error line (on the error stream) for a message or a caught value. */
  error(problem: unknown): void {
    this.newline()
    const text = `error: ${sanitize(problemText(problem))}`
    this.#options.err.write(`${isTty(this.#options.err) ? this.#options.styles.red(text) : text}\n`)
  }

  /** Writes a dimmed notice line. */
  notice(text: string): void {
    this.line(this.#options.styles.dim(text))
  }

  /** Writes a whole line, starting a fresh one first if needed. */
  line(text: string): void {
    this.newline()
    this.#write(`${text}\n`)
  }

  /** Ends the current line if the cursor is not at its start. */
  newline(): void {
    if (!this.#atLineStart) this.#write('\n')
  }

  /** Records that something else (an input line) left the cursor at a line start. */
  markLineStart(): void {
    this.#atLineStart = true
    this.#block = 'none'
  }

  #write(text: string): void {
    if (text === '') return
    this.#options.out.write(text)
    this.#atLineStart = text.endsWith('\n')
  }
}
