/**
 * `dsh run --output-format json|stream-json`: the same run as the text format (one turn per
 * prompt, full-auto by default, nobody to ask), reported as JSON. stream-json writes `system/init`
 * once the session exists and before the model is called, then each committed event of the
 * session and of its subagents (marked `subagent`) as it is appended, then a `result` line per
 * turn; json writes the last `result` only.
 *
 * Every way the command ends writes a result whose `is_error` is true exactly when the exit code
 * is not 0: a bad config or option value (2, before any session: `session_id` null), a model error
 * after the provider's retries, the step limit, a blocked turn (1), a signal (130 / 143 / 129).
 * With `--input-format stream-json` the run takes one prompt per stdin line and stops at the first
 * turn that fails. Diagnostics and the error line stay on stderr.
 */
import type { ExpandedPrompt, SessionEvent } from '@dsh/contracts'
import type { Agent } from '@dsh/runtime'
import { checkAddDirs, grantAddDirs } from '../add-dirs.ts'
import { prepareAgentSetup, type AgentSetup } from '../agent-setup.ts'
import { usageError } from '../cli-error.ts'
import { errLine, type CliIo } from '../cli-io.ts'
import { promptFrom } from '../prompt-source.ts'
import { guardShutdown, type ShutdownGuard } from '../shutdown.ts'
import type { RunOptions } from '../commands/run.ts'
import { EMPTY_ANSWER_CODE, emptyAnswerNotice } from '../empty-answer.ts'
import { failureOf, turnEndCodes } from './failure-code.ts'
import { HeadlessOutput, type HeadlessFormat } from './headless-output.ts'
import { initLine } from './init-line.ts'
import { summarizeRun } from './run-summary.ts'
import { stdinPrompts } from './stdin-prompts.ts'
import type { ResultLine } from './stream-json-types.ts'
import { SubagentLines } from './subagent-lines.ts'
import { expandRunPrompt } from '../command-expansion.ts'
import { liveSkillRoots } from '../skill-roots.ts'

/** What the headless formats add to `dsh run`'s options. */
export interface HeadlessRunOptions extends RunOptions {
  readonly outputFormat: HeadlessFormat
  readonly inputFormat: 'text' | 'stream-json'
  readonly includePartial: boolean
  /** Receives the final text of each turn (`-o`: last-message.ts). */
  readonly record?: (text: string) => void
}

/** How one turn ended, as the result line reports it. */
interface TurnReport {
  readonly stopReason: string
  readonly finalText: string
  readonly exitCode: number
  readonly error?: { readonly code: string; readonly message: string }
}

async function* onePrompt(prompt: string): AsyncGenerator<string> {
  yield prompt
}

/** The prompts of the run: the argument (or stdin text), or one per stdin line. */
async function promptsOf(io: CliIo, words: readonly string[], options: HeadlessRunOptions): Promise<AsyncGenerator<string>> {
  if (options.inputFormat === 'text') return onePrompt(await promptFrom(io, words))
  if (words.length > 0) throw usageError('--input-format stream-json reads the prompts from stdin: leave out the prompt argument')
  if (io.stdin === undefined) throw usageError('--input-format stream-json needs user messages on stdin, one JSON line each')
  return stdinPrompts(io.stdin)
}

/** Runs one prompt; a failure is reported, not thrown. */
async function runPrompt(agent: Agent, prompt: ExpandedPrompt, signal: AbortSignal, shutdown: ShutdownGuard): Promise<TurnReport> {
  try {
    const result = await agent.prompt(prompt.text, { signal, events: prompt.events })
    if (shutdown.signal !== undefined) return cancelledBy(shutdown, result.finalText)
    const code = turnEndCodes[result.reason]
    const empty = result.reason === 'completed' ? emptyAnswerNotice(agent.session.events, result.turn) : undefined
    if (empty !== undefined) return { stopReason: 'error', finalText: '', exitCode: 1, error: { code: EMPTY_ANSWER_CODE, message: `${empty} ${agent.session.id}` } }
    if (code === undefined) return { stopReason: result.reason, finalText: result.finalText, exitCode: 0 }
    const message = result.reason === 'max-steps' ? `stopped at the step limit before the model finished; continue with --resume ${agent.session.id}` : result.reason === 'blocked' ? 'the turn was blocked before the model was called' : 'cancelled'
    return { stopReason: result.reason, finalText: result.finalText, exitCode: 1, error: { code, message } }
  } catch (error) {
    // A turn that failed while a signal was ending it ends the way the signal says; else it is the turn's error.
    if (shutdown.signal !== undefined) return cancelledBy(shutdown, '')
    const failure = failureOf(error)
    return { stopReason: 'error', finalText: '', exitCode: failure.exitCode, error: { code: failure.code, message: failure.message } }
  }
}

function cancelledBy(shutdown: ShutdownGuard, finalText: string): TurnReport {
  return { stopReason: 'cancelled', finalText, exitCode: shutdown.exitCode ?? 1, error: { code: 'CANCELLED', message: `stopped by ${shutdown.signal ?? 'a signal'}: the turn was closed as cancelled` } }
}

/** Runs the command; returns the exit code. */
export async function headlessRun(io: CliIo, words: readonly string[], options: HeadlessRunOptions): Promise<number> {
  // A result's duration is its turn's, from the turn's line on stdin; the first turn's includes the start-up.
  let turnStartedAt = Date.now()
  const out = new HeadlessOutput({ stdout: io.stdout, format: options.outputFormat, includePartial: options.includePartial })
  const result = (sessionId: string | null, report: TurnReport, summary = summarizeRun([], 0)): ResultLine => ({
    type: 'result',
    session_id: sessionId,
    is_error: report.exitCode !== 0,
    result: report.finalText,
    stop_reason: report.stopReason,
    subtype: report.exitCode === 0 ? 'success' : report.stopReason === 'max-steps' ? 'error_max_turns' : 'error_during_execution',
    num_steps: summary.numSteps,
    num_turns: summary.numSteps,
    duration_ms: Date.now() - turnStartedAt,
    usage: summary.usage,
    permission_denials: summary.permissionDenials,
    exit_code: report.exitCode,
    ...(report.error === undefined ? {} : { error: report.error }),
  })
  let setup: AgentSetup | undefined
  let shutdown: ShutdownGuard | undefined
  let sessionId: string | null = null
  let endSession: (() => Promise<void>) | undefined
  // Set once the last result is out: what SessionEnd hooks append after it is not streamed.
  let closed = false
  try {
    if (options.resume === undefined) await checkAddDirs(io, options, options.addDir)
    const prompts = await promptsOf(io, words, options)
    setup = await prepareAgentSetup(io, options, { defaultMode: 'full-auto' })
    const controller = new AbortController()
    shutdown = guardShutdown({ signals: ['SIGINT', 'SIGTERM', 'SIGHUP'], processes: setup.processes, onSignal: () => controller.abort() })
    const agent = await startAgent(io, setup, options)
    const id = agent.session.id
    sessionId = id
    // Events appended before the init line (granting --add-dir) wait for it; later ones go out at once.
    let pending: SessionEvent[] | undefined = []
    // Subagents' events go out too, marked (subagent-lines.ts).
    const subagents = new SubagentLines(id)
    setup.host.ctx.on('session/event', (view, event) => {
      if (closed) return
      if (view.header.id !== id) {
        for (const line of subagents.accept(view, event)) out.event(id, line.event, line.mark)
        return
      }
      if (pending === undefined) out.event(id, event)
      else pending.push(event)
    })
    // Each piece names its attempt, so a consumer can drop what a discarding retry made void.
    const at = { turn: 0, step: 0, attempt: 1 }
    agent.onProgress((event) => {
      if (event.type === 'step-start') Object.assign(at, { turn: event.turn, step: event.step, attempt: 1 })
      else if (event.type === 'retry') at.attempt = event.attempt
      else if (event.type === 'text' || event.type === 'reasoning') out.delta({ type: 'stream/delta', session_id: id, kind: event.type, text: event.text, ...at })
    })
    const host = setup.host
    endSession = () => host.ctx.get('hooks')?.sessionEnd(agent.handle, 'other') ?? Promise.resolve()
    await grantAddDirs(io, setup, agent, options.addDir)
    out.init(initLine(setup, agent))
    for (const event of pending) out.event(id, event)
    pending = undefined
    let last: ResultLine | undefined
    for await (const prompt of prompts) {
      if (last !== undefined) turnStartedAt = Date.now()
      const fromSeq = agent.session.events.at(-1)?.seq ?? 0
      // `/name args` expands as in `dsh run`; an unknown name is a usage error (exit 2).
      const sent = await expandRunPrompt(prompt, { cwd: agent.session.header.cwd, dshHome: setup.dshHome, log: setup.log, additionalRoots: liveSkillRoots(host.ctx.get('workspaceRoots'), agent.session), session: agent.session })
      const report = await runPrompt(agent, sent, controller.signal, shutdown)
      options.record?.(report.finalText)
      last = result(id, report, summarizeRun(agent.session.events, fromSeq))
      if (report.error !== undefined) errLine(io, `dsh: ${report.error.message}`)
      if (options.outputFormat === 'stream-json' || report.exitCode !== 0) out.result(last)
      if (report.exitCode !== 0) return report.exitCode
    }
    if (last === undefined) throw usageError('--input-format stream-json: stdin ended before the first user message')
    if (options.outputFormat === 'json') out.result(last)
    return 0
  } catch (error) {
    const failure = failureOf(error)
    const exitCode = shutdown?.exitCode ?? failure.exitCode
    errLine(io, `dsh: ${failure.message}`)
    out.result(result(sessionId, { stopReason: 'error', finalText: '', exitCode, error: { code: failure.code, message: failure.message } }))
    return exitCode
  } finally {
    closed = true
    await endSession?.()
    await setup?.host.dispose()
    shutdown?.[Symbol.dispose]()
  }
}

/** Starts or resumes the session; a resumed one keeps its own directory. */
async function startAgent(io: CliIo, setup: AgentSetup, options: HeadlessRunOptions): Promise<Agent> {
  if (options.resume !== undefined && options.cwd !== undefined) {
    const header = setup.host.sessions.header(options.resume)
    if (header.cwd !== setup.cwd) throw usageError(`--cwd ${setup.cwd}: session ${header.id} works in ${header.cwd} (a session keeps its directory); leave out --cwd, or pass --cwd ${header.cwd}`)
  }
  const agent = await setup.host.startAgent(setup.startOptions(options.resume))
  errLine(io, `session: ${agent.session.id}`)
  return agent
}
