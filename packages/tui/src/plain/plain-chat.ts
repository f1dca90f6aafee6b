/**
 * The plain line mode of `dsh chat` (pipes, `TERM=dumb`): read a line, run it, repeat until
 * `/exit`, the end of input, or two Ctrl-C at an idle prompt within two seconds (a line typed in
 * between disarms the first). Ctrl-C while something runs cancels it and never counts toward exit.
 */
import type { ChatController } from '../chat-controller.ts'
import { decideKey, interruptExitCode } from '../interrupt-policy.ts'
import type { LineInput } from './line-input.ts'
import type { PlainView } from './plain-view.ts'

/** What the loop runs on. */
export interface PlainChatOptions {
  readonly controller: ChatController
  readonly input: LineInput
  readonly view: PlainView
  /** A person types (prompts shown, a newline after Ctrl-D). */
  readonly interactive: boolean
  readonly out: NodeJS.WritableStream
  /** Milliseconds clock (tests pin it). */
  readonly now?: () => number
}

const prompt = '> '

/** Handles one Ctrl-C. */
export function plainInterrupt(options: PlainChatOptions, armed: { at?: number }): void {
  const { controller, view, input } = options
  const decision = decideKey('ctrl-c', { running: controller.busy, inputEmpty: true, ...(armed.at === undefined ? {} : { armedAt: armed.at }) }, (options.now ?? Date.now)())
  if (decision.armedAt === undefined) delete armed.at
  else armed.at = decision.armedAt
  switch (decision.action) {
    case 'cancel':
      controller.cancel()
      return
    case 'exit':
      controller.exit(interruptExitCode)
      input.close()
      return
    case 'arm-exit':
      if (options.interactive) options.out.write('\n')
      view.markLineStart()
      view.lines(['(press Ctrl-C again to exit, or type /exit)'])
      input.reprompt(prompt)
      return
    default:
      return
  }
}

/** Runs until the chat ends. */
export async function runPlainChat(options: PlainChatOptions, armed: { at?: number }): Promise<void> {
  const { controller, input, view } = options
  for (;;) {
    view.newline()
    const line = await input.read(prompt)
    if (line === undefined) {
      if (options.interactive && !controller.exiting) options.out.write('\n')
      break
    }
    view.markLineStart()
    if (controller.exiting) break
    delete armed.at
    await controller.submit(line)
    if (controller.exiting) break
  }
  controller.exit()
}
