/**
 * The chat's read–run loop: read a line, run it as a slash command or a prompt while streaming
 * progress, repeat until `/exit`, the end of input, or two Ctrl-C within two seconds (a line typed
 * in between disarms the first). Ctrl-C while something runs cancels it and returns to the prompt;
 * at an idle prompt it prints a hint.
 */
import type { Agent } from '@dsh/runtime'
import type { AgentSetup } from '../agent-setup.ts'
import { errLine, type CliIo } from '../cli-io.ts'
import type { LineInput } from './line-input.ts'
import type { ChatRenderer } from './renderer.ts'
import { parseSlash, promptText, runSlash, type SlashContext } from './slash-commands.ts'
import { workspaceReport } from './workspace-report.ts'
import { resumedSessionLine } from '../resume-note.ts'
import { chatDocs } from '../commands/docs-chat.ts'

/** How long a first Ctrl-C arms the second one. */
export const doubleInterruptMs = 2000

/** What the loop runs on. */
export interface ChatLoopOptions {
  readonly io: CliIo
  readonly input: LineInput
  readonly renderer: ChatRenderer
  readonly setup: AgentSetup
  readonly agent: Agent
  /** A person types the input (prompts are shown; failures do not change the exit code). */
  readonly interactive: boolean
  /** Milliseconds clock (tests pin it). */
  readonly now?: () => number
  /** Called when a second Ctrl-C ends the chat (the command's shutdown path, exit code 130). */
  readonly onInterruptExit?: () => void
  /**
   * Prepares a session `/resume` switched to before its first prompt (the chat's `--add-dir`
   * directories); returns the lines to show. A rejection abandons the switch.
   */
  readonly onSwitch?: (agent: Agent) => Promise<readonly string[]>
}

/** One chat session in the terminal. */
export class ChatLoop {
  readonly #options: ChatLoopOptions
  #agent: Agent
  #unsubscribe: () => void
  #running: AbortController | undefined
  #lastInterrupt: number | undefined
  #exiting = false
  #failed = false

  constructor(options: ChatLoopOptions) {
    this.#options = options
    this.#agent = options.agent
    this.#unsubscribe = this.#subscribe(options.agent)
  }

  /** The current agent (changes on `/resume`). */
  get agent(): Agent {
    return this.#agent
  }

  /** Runs until the chat ends; returns the exit code. */
  async run(): Promise<number> {
    const { input, renderer } = this.#options
    const prompt = renderer.styles.bold('> ')
    for (;;) {
      renderer.newline()
      const line = await input.read(prompt)
      if (line === undefined) {
        if (this.#options.interactive) this.#options.io.stdout.write('\n')
        break
      }
      renderer.markLineStart()
      if (this.#exiting) break
      this.#lastInterrupt = undefined
      if (line.trim() === '') continue
      const command = parseSlash(line)
      await this.#busy((signal) => (command === undefined ? this.#prompt(promptText(line), signal) : runSlash(command, this.#slashContext(signal))))
      if (this.#exiting) break
    }
    this.#unsubscribe()
    return this.#failed && !this.#options.interactive ? 1 : 0
  }

  /** Ctrl-C: cancel what runs, else hint; a second one within two seconds exits. */
  interrupt(): void {
    const now = (this.#options.now ?? Date.now)()
    const again = this.#lastInterrupt !== undefined && now - this.#lastInterrupt <= doubleInterruptMs
    this.#lastInterrupt = now
    if (again) {
      this.#options.onInterruptExit?.()
      this.exit()
      return
    }
    const { renderer, input } = this.#options
    if (this.#running !== undefined) {
      this.#running.abort()
      this.#agent.cancel()
      return
    }
    this.#options.io.stdout.write('\n')
    renderer.markLineStart()
    renderer.notice('(press Ctrl-C again to exit, or type /exit)')
    input.reprompt()
  }

  /** Ends the chat: cancels what runs and stops reading. */
  exit(): void {
    this.#exiting = true
    this.#running?.abort()
    this.#agent.cancel()
    this.#options.input.close()
  }

  async #busy(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = new AbortController()
    this.#running = controller
    try {
      await work(controller.signal)
    } catch (error) {
      // A failed turn (model error, script exhausted) or command is reported and the chat goes on.
      this.#options.renderer.error(error)
      this.#failed = true
    } finally {
      this.#running = undefined
    }
  }

  async #prompt(text: string, signal: AbortSignal): Promise<void> {
    const result = await this.#agent.prompt(text, { signal })
    this.#options.renderer.newline()
    this.#options.renderer.turnResult(result)
    if (result.reason === 'error') this.#failed = true
  }

  #slashContext(signal: AbortSignal): SlashContext {
    return {
      agent: this.#agent,
      host: this.#options.setup.host,
      renderer: this.#options.renderer,
      signal,
      modelSummaries: this.#options.setup.spec.kind !== 'scripted',
      ...(this.#options.setup.onRequest === undefined ? {} : { onRequest: this.#options.setup.onRequest }),
      inspectWorkspace: () => {
        const { setup } = this.#options
        const fs = setup.host.ctx.get('fs')
        return workspaceReport({ cwd: this.#agent.handle.cwd, dshHome: setup.dshHome, config: setup.config.workspaceContext, fs, signal })
      },
      docs: (args) => chatDocs(this.#options.setup.docs, args, this.#agent.session.id),
      resume: (id) => this.#resume(id),
      exit: () => this.exit(),
    }
  }

  async #resume(idOrPrefix: string): Promise<void> {
    const { renderer, setup, io } = this.#options
    let id: string
    let next: Agent
    try {
      id = setup.host.sessions.resolve(idOrPrefix)
      if (id === this.#agent.session.id) {
        renderer.line(`already in session ${id}`)
        return
      }
      next = await setup.host.startAgent(setup.startOptions(id))
    } catch (error) {
      // An unknown or unreadable session leaves the current one in place.
      renderer.error(error)
      return
    }
    let notes: readonly string[]
    try {
      notes = (await this.#options.onSwitch?.(next)) ?? []
    } catch (error) {
      // The switched-to session could not be prepared: it is closed again, the current one stays.
      next.dispose()
      renderer.error(error)
      return
    }
    this.#unsubscribe()
    this.#agent.dispose()
    this.#agent = next
    this.#unsubscribe = this.#subscribe(next)
    errLine(io, `session: ${id}`)
    renderer.line(resumedSessionLine(next, setup.cwd))
    for (const note of notes) renderer.line(note)
  }

  #subscribe(agent: Agent): () => void {
    const listener = (event: Parameters<Parameters<Agent['onProgress']>[0]>[0]): void => this.#options.renderer.handle(event)
    return agent.onProgress(listener)
  }
}
