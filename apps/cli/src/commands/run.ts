/**
 * `dsh run PROMPT`: runs one turn (new or resumed session), prints the final answer on stdout
 * and `session: <id>` on stderr. A turn that stopped at the step limit prints what text it has and
 * fails (exit 1) with a line saying how to continue. SIGINT, SIGTERM and SIGHUP cancel the turn
 * through the shutdown path (shutdown.ts) and exit with 130, 143 or 129. Nothing asks: the default
 * permission mode is `full-auto`, and a call the mode would ask about is denied with the way out.
 * `--output-format json|stream-json` hands the run to headless/headless-run.ts.
 * The answer is printed without terminal control sequences unless stdout is not a terminal and
 * `--raw` was given (terminal-output.ts).
 */
import type { SessionEvent } from '@dsh/contracts'
import type { Host } from '@dsh/runtime'
import { CliError, usageError } from '../cli-error.ts'
import { errLine, type CliIo } from '../cli-io.ts'
import { prepareAgentSetup, type AgentSetup } from '../agent-setup.ts'
import { absoluteDirs, checkAddDirs, grantAddDirs } from '../add-dirs.ts'
import { prospectiveSkillRoots } from '../skill-roots.ts'
import { expandRunPrompt } from '../command-expansion.ts'
import { promptFrom } from '../prompt-source.ts'
import { guardShutdown } from '../shutdown.ts'
import { answerForOutput } from '../terminal-output.ts'
import { emptyAnswerNotice } from '../empty-answer.ts'
import { continuedOptions } from '../continue-session.ts'
import { withLastMessage } from '../last-message.ts'

export { configFrom, defaultAutoCompactShare } from '../agent-setup.ts'

/** Options of `dsh run`. */
export interface RunOptions {
  readonly cwd?: string
  readonly model?: string
  readonly baseUrl?: string
  readonly config?: string
  readonly addDir?: readonly string[]
  readonly resume?: string
  /** `-c`: resume the latest session of the directory (continue-session.ts). */
  readonly continue?: boolean
  /** `-o FILE`: the final answer is written there too (last-message.ts). */
  readonly outputLastMessage?: string
  readonly requestLog?: string
  readonly maxSteps?: number
  readonly dshHome?: string
  readonly permissionMode?: string
  readonly allow?: readonly string[]
  readonly deny?: readonly string[]
  /** `text` (default), `json` or `stream-json` (headless/headless-run.ts). */
  readonly outputFormat?: 'text' | 'json' | 'stream-json'
  /** `text` (default) or `stream-json` (one user message per stdin line). */
  readonly inputFormat?: 'text' | 'stream-json'
  /** stream-json: also stream text and reasoning pieces. */
  readonly includePartial?: boolean
  /** Keep control sequences in the answer when stdout is not a terminal. */
  readonly raw?: boolean
  readonly mcpConfig?: readonly string[]
}

/** A resumed session keeps the directory it was created in: a different `--cwd` is refused (its header alone tells). */
function refuseOtherDirectory(host: Host, setup: AgentSetup, idOrPrefix: string): void {
  const header = host.sessions.header(idOrPrefix)
  if (header.cwd !== setup.cwd) {
    throw usageError(`--cwd ${setup.cwd}: session ${header.id} works in ${header.cwd} (a session keeps its directory); leave out --cwd, or pass --cwd ${header.cwd}`)
  }
}

/** Runs the command with the words after the options; returns the exit code. */
export async function runCommand(io: CliIo, words: readonly string[], given: RunOptions): Promise<number> {
  const options = continuedOptions(io, given)
  return withLastMessage(io, options.outputLastMessage, async (record) => {
    const outputFormat = options.outputFormat ?? 'text'
    if (outputFormat === 'text') return runText(io, words, options, record)
    const { headlessRun } = await import('../headless/headless-run.ts')
    return headlessRun(io, words, { ...options, outputFormat, inputFormat: options.inputFormat ?? 'text', includePartial: options.includePartial === true, record })
  })
}

/** The text output: the answer on stdout. */
async function runText(io: CliIo, words: readonly string[], options: RunOptions, record: (text: string) => void): Promise<number> {
  if (options.inputFormat === 'stream-json') throw usageError('--input-format stream-json needs --output-format json or stream-json')
  if (options.resume === undefined) await checkAddDirs(io, options, options.addDir)
  const prompt = await promptFrom(io, words)
  // dsh run has nobody to ask: its default mode is full-auto (shell sandboxed), and an ask is a denial.
  const setup = await prepareAgentSetup(io, options, { defaultMode: 'full-auto' })
  const { host, startOptions } = setup
  const controller = new AbortController()
  const shutdown = guardShutdown({ signals: ['SIGINT', 'SIGTERM', 'SIGHUP'], processes: setup.processes, onSignal: () => controller.abort() })
  let endSession: (() => Promise<void>) | undefined
  try {
    if (options.resume !== undefined && options.cwd !== undefined) refuseOtherDirectory(host, setup, options.resume)
    const sessionCwd = options.resume === undefined ? setup.cwd : host.sessions.header(options.resume).cwd
    // Expanded before the session opens (an unknown /name creates none), with the roots it will have.
    const granted = absoluteDirs(io, options.addDir)
    const additionalRoots = await prospectiveSkillRoots({ dshHome: setup.dshHome, cwd: sessionCwd, granted, enabled: host.ctx.get('workspaceRoots') !== undefined })
    const sent = await expandRunPrompt(prompt, { cwd: sessionCwd, dshHome: setup.dshHome, log: setup.log, additionalRoots })
    const agent = await host.startAgent(startOptions(options.resume))
    errLine(io, `session: ${agent.session.id}`)
    endSession = () => host.ctx.get('hooks')?.sessionEnd(agent.handle, 'other') ?? Promise.resolve()
    await grantAddDirs(io, setup, agent, options.addDir)
    const result = await agent.prompt(sent.text, { signal: controller.signal, events: sent.events }).catch((error: unknown) => {
      // A turn that failed while a signal was ending it still ends the way the signal says.
      if (shutdown.signal === undefined) throw error
      return undefined
    })
    if (result !== undefined) record(result.finalText)
    if (result === undefined || shutdown.signal !== undefined) {
      errLine(io, `dsh: stopped by ${shutdown.signal}: the turn was closed as cancelled; continue with --resume ${agent.session.id}`)
      return shutdown.exitCode ?? 1
    }
    if (result.reason === 'cancelled') throw new CliError('cancelled')
    if (result.reason === 'blocked') throw new CliError('the turn was blocked before the model was called')
    const empty = result.reason === 'completed' ? emptyAnswerNotice(agent.session.events, result.turn) : undefined
    if (empty !== undefined) throw new CliError(`${empty} ${agent.session.id}`)
    const text = answerForOutput(result.finalText, { isTerminal: 'isTTY' in io.stdout && io.stdout.isTTY === true, raw: options.raw === true })
    io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`)
    if (result.reason === 'max-steps') {
      const steps = stepsOfTurn(agent.session.events, result.turn)
      throw new CliError(`stopped at the step limit (${steps} ${steps === 1 ? 'step' : 'steps'}) before the model finished; continue with --resume ${agent.session.id}`)
    }
    return 0
  } finally {
    await endSession?.()
    await host.dispose()
    shutdown[Symbol.dispose]()
  }
}

/** How many steps turn `turn` ran (its `step/end` events). */
function stepsOfTurn(events: readonly SessionEvent[], turn: number): number {
  return events.filter((event) => event.type === 'step/end' && typeof event.data === 'object' && event.data !== null && 'turn' in event.data && event.data.turn === turn).length
}
