/**
 * Line input of the plain mode over `node:readline` without terminal handling: lines come as the
 * terminal driver or the pipe delivers them, prompts are plain text, no escape code is written.
 * Lines are queued, so piped input and type-ahead are never lost; `ask` waits for a line typed
 * after the question (a piped answer is its next line). Ctrl-C arrives as the process signal.
 */
import { createInterface, type Interface } from 'node:readline'

/** Construction options. */
export interface LineInputOptions {
  readonly input: NodeJS.ReadableStream
  readonly output: NodeJS.WritableStream
  /** Show prompts (a person types at a terminal). */
  readonly showPrompts: boolean
  /** Called on each Ctrl-C (SIGINT). */
  readonly onInterrupt: () => void
}

type Waiter = (line: string | undefined) => void

/** Queued line reader. */
export class LineInput {
  readonly #options: LineInputOptions
  readonly #rl: Interface
  readonly #queue: string[] = []
  #waiter: Waiter | undefined
  #closed = false
  readonly #onSignal = (): void => this.#options.onInterrupt()

  constructor(options: LineInputOptions) {
    this.#options = options
    this.#rl = createInterface({ input: options.input, terminal: false })
    this.#rl.on('line', (line) => this.#deliver(line))
    this.#rl.on('close', () => {
      this.#closed = true
      this.#settle(undefined)
    })
    process.on('SIGINT', this.#onSignal)
  }

  /** Next line, or `undefined` when the input has ended. Shows `prompt` while waiting. */
  read(prompt: string): Promise<string | undefined> {
    const queued = this.#queue.shift()
    if (queued !== undefined) return Promise.resolve(queued)
    return this.#next(prompt)
  }

  /**
   * Asks a question; resolves with the answer, or `undefined` when the input ended or `signal`
   * aborted first. A person's answer must be typed after the question appears (typed-ahead lines
   * stay queued as prompts); piped input answers with its next line, echoed after the question.
   */
  async ask(question: string, signal: AbortSignal): Promise<string | undefined> {
    if (signal.aborted) return undefined
    const piped = !this.#options.showPrompts
    if (piped) this.#options.output.write(question)
    const onAbort = (): void => {
      if (this.#options.showPrompts) this.#options.output.write('\n')
      this.#settle(undefined)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    try {
      const answer = await (piped ? this.read(question) : this.#next(question))
      if (piped) this.#options.output.write(`${answer ?? ''}\n`)
      return answer
    } finally {
      signal.removeEventListener('abort', onAbort)
    }
  }

  /** Shows the prompt again after a notice, when a read waits. */
  reprompt(prompt: string): void {
    if (this.#waiter !== undefined && this.#options.showPrompts) this.#options.output.write(prompt)
  }

  /** Stops reading and listening for Ctrl-C; waiting reads resolve with `undefined`. */
  close(): void {
    process.removeListener('SIGINT', this.#onSignal)
    this.#queue.length = 0
    if (!this.#closed) this.#rl.close()
    this.#closed = true
    this.#settle(undefined)
  }

  #next(prompt: string): Promise<string | undefined> {
    if (this.#closed) return Promise.resolve(undefined)
    return new Promise<string | undefined>((resolve) => {
      this.#waiter = resolve
      if (this.#options.showPrompts) this.#options.output.write(prompt)
    })
  }

  #deliver(line: string): void {
    if (this.#waiter === undefined) this.#queue.push(line)
    else this.#settle(line)
  }

  #settle(line: string | undefined): void {
    const waiter = this.#waiter
    this.#waiter = undefined
    waiter?.(line)
  }
}
