/**
 * Line input of the chat over `node:readline`. Lines are queued, so piped input and type-ahead are
 * never lost: `read` takes the next line (showing a prompt when one is waited for), `ask` does the
 * same for a question that a cancelled step abandons. Ctrl-C reaches `onInterrupt` whether it comes
 * as readline's SIGINT (raw mode) or as the process signal (cooked terminal, pipes). The end of
 * input (Ctrl-D at an empty prompt, or a pipe's end) resolves waiting reads with `undefined`.
 *
 * In `editing` mode readline does the line editing (history, cursor keys) and redraws with escape
 * codes; otherwise lines come as the terminal or the pipe delivers them, with no escape codes.
 */
import { createInterface, type Interface } from 'node:readline'

/** Construction options. */
export interface LineInputOptions {
  /** Where lines come from. */
  readonly input: NodeJS.ReadableStream
  /** Where prompts go. */
  readonly output: NodeJS.WritableStream
  /** Let readline edit lines in raw mode (a colour terminal); false for cooked terminals and pipes. */
  readonly editing: boolean
  /** Show prompts (the input is a person at a terminal). */
  readonly showPrompts: boolean
  /** Called on each Ctrl-C. */
  readonly onInterrupt: () => void
}

type Waiter = (line: string | undefined) => void

/** Queued line reader. */
export class LineInput {
  readonly #options: LineInputOptions
  readonly #rl: Interface
  readonly #queue: string[] = []
  #waiter: Waiter | undefined
  #prompt = ''
  #closed = false
  readonly #onSignal = (): void => this.#options.onInterrupt()

  constructor(options: LineInputOptions) {
    this.#options = options
    this.#rl = createInterface({
      input: options.input,
      ...(options.editing ? { output: options.output } : {}),
      terminal: options.editing,
      historySize: 200,
      prompt: '',
    })
    this.#rl.on('line', (line) => this.#deliver(line))
    this.#rl.on('close', () => {
      this.#closed = true
      this.#settle(undefined)
    })
    this.#rl.on('SIGINT', this.#onSignal)
    process.on('SIGINT', this.#onSignal)
  }

  /** Next line, or `undefined` when the input has ended. Shows `prompt` while waiting. */
  read(prompt: string): Promise<string | undefined> {
    const queued = this.#queue.shift()
    if (queued !== undefined) return Promise.resolve(queued)
    return this.#next(prompt)
  }

  /** Waits for a line that arrives from now on (queued lines stay queued). */
  #next(prompt: string): Promise<string | undefined> {
    if (this.#closed) return Promise.resolve(undefined)
    return new Promise<string | undefined>((resolve) => {
      this.#waiter = resolve
      this.#showPrompt(prompt)
    })
  }

  /**
   * Asks a question and returns the answer line; `undefined` when the input ended or `signal`
   * aborted first. A person's answer must be typed after the question appears: lines typed ahead
   * stay queued as prompts, so they can never approve anything. Piped input answers with its next
   * line, and the question and the answer are echoed.
   */
  async ask(question: string, signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) return undefined
    const echo = !this.#options.showPrompts
    if (echo) this.#options.output.write(question)
    const onAbort = (): void => {
      this.#dropLine()
      if (this.#options.editing) this.#rl.setPrompt('')
      if (this.#options.showPrompts) this.#options.output.write('\n')
      this.#settle(undefined)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    try {
      const answer = await (echo ? this.read(question) : this.#next(question))
      if (echo) this.#options.output.write(`${answer ?? ''}\n`)
      return answer
    } finally {
      signal.removeEventListener('abort', onAbort)
    }
  }

  /** Shows the current prompt again (after a notice), dropping any half-typed line. */
  reprompt(): void {
    if (this.#waiter === undefined) return
    this.#dropLine()
    this.#showPrompt(this.#prompt)
  }

  /** Clears readline's half-typed line (editing mode; a cooked terminal drops it on Ctrl-C itself). */
  #dropLine(): void {
    if (!this.#options.editing || this.#closed) return
    this.#rl.write(null, { ctrl: true, name: 'e' })
    this.#rl.write(null, { ctrl: true, name: 'u' })
  }

  /** Closes readline and stops listening for Ctrl-C; waiting reads resolve with `undefined`. */
  close(): void {
    process.removeListener('SIGINT', this.#onSignal)
    this.#queue.length = 0
    if (!this.#closed) this.#rl.close()
    this.#closed = true
    this.#settle(undefined)
  }

  #showPrompt(prompt: string): void {
    this.#prompt = prompt
    if (!this.#options.showPrompts) return
    if (this.#options.editing) {
      this.#rl.setPrompt(prompt)
      this.#rl.prompt()
    } else {
      this.#options.output.write(prompt)
    }
  }

  #deliver(line: string): void {
    if (this.#waiter === undefined) {
      this.#queue.push(line)
      return
    }
    if (this.#options.editing) this.#rl.setPrompt('')
    this.#settle(line)
  }

  #settle(line: string | undefined): void {
    const waiter = this.#waiter
    this.#waiter = undefined
    waiter?.(line)
  }
}
