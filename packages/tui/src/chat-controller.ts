/**
 * The chat's behaviour, shared by every front end: it owns the current agent, runs submitted
 * lines one at a time (slash commands through the registry, anything else as a prompt), queues
 * lines submitted while something runs, cancels on request, and switches sessions (`/resume`,
 * `/new`) and models (`/model`). Front ends turn keys into calls and render through the view.
 */
import type { PromptEvent } from '@dsh/contracts'
import type { Agent, TurnResult } from '@dsh/runtime'
import { deriveMessages } from '@dsh/runtime'
import { todoListOf } from '@dsh/todo'
import type { ChatEnvironment, ModelChoice } from './chat-environment.ts'
import type { ChatView } from './chat-view.ts'
import { outcomeWords, shellCommand, shellContext, type ShellRunner } from './shell-line.ts'
import { parseSlash, promptText, type SlashRegistry } from './slash/slash-registry.ts'

/** Construction options. */
export interface ChatControllerOptions {
  readonly env: ChatEnvironment
  readonly view: ChatView
  readonly registry: SlashRegistry
  /** The agent the chat starts with. */
  readonly agent: Agent
  /** Called with each session id that becomes current (the CLI prints `session: <id>`). */
  readonly onSession?: (id: string) => void
}

/** A line waiting its turn, with the events its prompt records. */
interface QueuedLine {
  readonly line: string
  readonly events: readonly PromptEvent[]
  /** Text that is a prompt whatever it starts with (an expanded command's body): never a `/command` or a `!command`. */
  readonly asPrompt: boolean
}

/** Options of {@link ChatController.submit}. */
export interface SubmitOptions {
  readonly events?: readonly PromptEvent[]
  /**
   * The text is a prompt as it stands (the body of a custom command, a skill or an MCP prompt):
   * a leading `/` or `!` in it is text for the model. Such text comes from files and servers, not
   * from the person, and must never run as the person's shell command.
   */
  readonly asPrompt?: boolean
}

/** One chat. */
export class ChatController {
  readonly #options: ChatControllerOptions
  readonly #queue: QueuedLine[] = []
  #agent: Agent
  #model: ModelChoice
  #running: AbortController | undefined
  #runningSince: number | undefined
  #draining = false
  #exiting = false
  #failed = false
  #exitCode = 0
  #unsubscribe: () => void
  #finish: () => void = () => undefined
  /** Resolves when the chat ended (`exit()`); the front end then tears down. */
  readonly finished: Promise<void>

  constructor(options: ChatControllerOptions) {
    this.#options = options
    this.#agent = options.agent
    this.#model = options.env.model
    this.#unsubscribe = this.#subscribe(options.agent)
    this.finished = new Promise((resolve) => (this.#finish = resolve))
  }

  get agent(): Agent {
    return this.#agent
  }

  get env(): ChatEnvironment {
    return this.#options.env
  }

  get model(): ModelChoice {
    return this.#model
  }

  get registry(): SlashRegistry {
    return this.#options.registry
  }

  /** True while a prompt or command runs. */
  get busy(): boolean {
    return this.#running !== undefined
  }

  /** Milliseconds timestamp the running work started at. */
  get runningSince(): number | undefined {
    return this.#runningSince
  }

  /** True when a turn or command failed (the plain mode's exit code). */
  get failed(): boolean {
    return this.#failed
  }

  get exiting(): boolean {
    return this.#exiting
  }

  /** The exit code the chat ended with (0, or 130 after two Ctrl-C). */
  get exitCode(): number {
    return this.#exitCode
  }

  /**
   * Runs `line` now, or queues it behind what runs. Resolves when the queue is drained. `events`
   * are recorded with the prompt when its turn starts (a skill's grant: not while another turn runs).
   */
  async submit(line: string, options: SubmitOptions = {}): Promise<void> {
    if (this.#exiting || line.trim() === '') return
    this.#queue.push({ line, events: options.events ?? [], asPrompt: options.asPrompt === true })
    this.#options.view.queueChanged(this.busy || this.#draining ? this.#lines() : [])
    if (this.#draining) return
    this.#draining = true
    try {
      for (let next = this.#queue.shift(); next !== undefined && !this.#exiting; next = this.#queue.shift()) {
        this.#options.view.queueChanged(this.#lines())
        await this.#runOne(next)
      }
    } finally {
      this.#draining = false
    }
  }

  /** Cancels what runs; returns the lines that were still queued (they are not run). */
  cancel(): string[] {
    const dropped = this.#queue.splice(0).map((item) => item.line)
    this.#options.view.queueChanged([])
    this.#running?.abort()
    this.#agent.cancel()
    return dropped
  }

  /** Ends the chat with `exitCode`: cancels what runs and resolves `finished`. The first call wins. */
  exit(exitCode = 0): void {
    if (this.#exiting) return
    this.#exiting = true
    this.#exitCode = exitCode
    this.cancel()
    this.#unsubscribe()
    this.#finish()
  }

  /** Makes a stored session current (already opened agent); shows its conversation. */
  adopt(next: Agent): void {
    this.#unsubscribe()
    this.#agent.dispose()
    this.#agent = next
    this.#unsubscribe = this.#subscribe(next)
    this.#options.onSession?.(next.session.id)
    this.#options.view.replay(deriveMessages(next.session), todoListOf(next.session).items)
    this.#options.view.statusChanged()
  }

  /**
   * Starts an agent on a stored session (`resume`) or a new one, with the current model; a stored
   * session that ran with another endpoint continues with that one (it becomes the chat's model).
   */
  startAgent(resume?: string): Promise<Agent> {
    const stored = resume === undefined ? undefined : this.#options.env.modelForResume?.(resume)
    if (stored !== undefined && stored.provider !== this.#model.provider) this.#model = stored
    return this.#options.env.host.startAgent({ ...this.#options.env.startOptions(resume), provider: this.#model.provider })
  }

  /** Switches the model for the next steps of this and later sessions. */
  setModel(choice: ModelChoice): void {
    this.#model = choice
    this.#agent.setProvider(choice.provider)
    this.#options.view.statusChanged()
  }

  #lines(): string[] {
    return this.#queue.map((item) => item.line)
  }

  async #runOne({ line, events, asPrompt }: QueuedLine): Promise<void> {
    const controller = new AbortController()
    this.#running = controller
    this.#runningSince = Date.now()
    this.#options.view.statusChanged()
    try {
      const command = asPrompt ? undefined : parseSlash(line)
      const shell = this.#options.env.shell
      const shellLine = shell === undefined || asPrompt ? undefined : shellCommand(line)
      if (asPrompt) await this.#prompt(line, events, controller.signal)
      else if (shell !== undefined && shellLine !== undefined) await this.#shell(shell, line, shellLine, controller.signal)
      else if (command === undefined) await this.#prompt(promptText(line), events, controller.signal)
      else {
        // Shown like a prompt, so each command's output sits under the line that asked for it.
        this.#options.view.promptStarted(line.trim())
        await this.#options.registry.run(command, { controller: this, view: this.#options.view, signal: controller.signal })
      }
    } catch (error) {
      // A failed turn (model error, script exhausted) or command is reported and the chat goes on.
      this.#options.view.error(error)
      this.#failed = true
    } finally {
      this.#running = undefined
      this.#runningSince = undefined
      this.#options.view.statusChanged()
    }
  }

  /** A `!command` line: the person's command runs, its output shows, and the model gets both with the next prompt (after it). */
  async #shell(run: ShellRunner, line: string, command: string, signal: AbortSignal): Promise<void> {
    this.#options.view.promptStarted(line.trim())
    const cwd = this.#agent.handle.cwd
    const outcome = await run(command, { cwd, signal })
    const shown = outcome.output === '' ? [] : outcome.output.replace(/\n$/, '').split('\n')
    this.#options.view.lines([...shown, ...(outcome.truncated ? ['[output cut]'] : []), `[${outcomeWords(outcome)}]`], outcome.exitCode === 0 ? 'plain' : 'warning')
    // With the next step that runs: the next prompt's first step, right after the prompt (a
    // next-turn item would be a turn of its own: a turn claims one).
    await this.#agent.handle.inbox.append('next-step', shellContext({ cwd, command, outcome }))
  }

  async #prompt(text: string, events: readonly PromptEvent[], signal: AbortSignal): Promise<void> {
    this.#options.view.promptStarted(text)
    const result: TurnResult = await this.#agent.prompt(text, { signal, events })
    this.#options.view.turnEnded(result)
    if (result.reason === 'error') this.#failed = true
  }

  #subscribe(agent: Agent): () => void {
    return agent.onProgress((event) => {
      this.#options.view.progress(event)
      if (event.type === 'turn-end' || event.type === 'step-start') this.#options.view.statusChanged()
    })
  }
}
