/**
 * `dsh run PROMPT`: runs one turn (new or resumed session), prints the final answer on stdout
 * and `session: <id>` on stderr. A turn that stopped at the step limit prints what text it has and
 * fails (exit 1) with a line saying how to continue.
 */
import type { SessionEvent } from '@dsh/contracts'
import { CliError } from '../cli-error.ts'
import { errLine, type CliIo } from '../cli-io.ts'
import { prepareAgentSetup } from '../agent-setup.ts'
import { checkAddDirs, grantAddDirs } from '../add-dirs.ts'

export { configFrom, defaultAutoCompactShare } from '../agent-setup.ts'

/** Options of `dsh run`. */
export interface RunOptions {
  readonly cwd?: string
  readonly model?: string
  readonly baseUrl?: string
  readonly config?: string
  readonly addDir?: readonly string[]
  readonly resume?: string
  readonly requestLog?: string
  readonly maxSteps?: number
  readonly dshHome?: string
}

/** Runs the command; returns the exit code. */
export async function runCommand(io: CliIo, prompt: string, options: RunOptions): Promise<number> {
  if (options.resume === undefined) await checkAddDirs(io, options, options.addDir)
  const setup = await prepareAgentSetup(io, options)
  const { host, startOptions } = setup
  try {
    const agent = await host.startAgent(startOptions(options.resume))
    errLine(io, `session: ${agent.session.id}`)
    await grantAddDirs(io, setup, agent, options.addDir)
    const controller = new AbortController()
    const onSigint = (): void => controller.abort()
    process.once('SIGINT', onSigint)
    try {
      const result = await agent.prompt(prompt, { signal: controller.signal })
      if (result.reason === 'cancelled') throw new CliError('cancelled')
      if (result.reason === 'blocked') throw new CliError('the turn was blocked before the model was called')
      io.stdout.write(result.finalText.endsWith('\n') || result.finalText === '' ? result.finalText : `${result.finalText}\n`)
      if (result.reason === 'max-steps') {
        const steps = stepsOfTurn(agent.session.events, result.turn)
        throw new CliError(`stopped at the step limit (${steps} ${steps === 1 ? 'step' : 'steps'}) before the model finished; continue with --resume ${agent.session.id}`)
      }
      return 0
    } finally {
      process.removeListener('SIGINT', onSigint)
    }
  } finally {
    await host.dispose()
  }
}

/** How many steps turn `turn` ran (its `step/end` events). */
function stepsOfTurn(events: readonly SessionEvent[], turn: number): number {
  return events.filter((event) => event.type === 'step/end' && typeof event.data === 'object' && event.data !== null && 'turn' in event.data && event.data.turn === turn).length
}
