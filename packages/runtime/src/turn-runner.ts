/**
 * One turn of the agent loop (ARCHITECTURE §3.3): claim the inbox, assemble the system prompt,
 * run the `agent/pre-step` waterfall, append the entered batch, call the model, run tool calls
 * through the pipeline, append the step's additional contexts before `step/end` (discarded when
 * the step aborts), and decide whether the turn continues.
 *
 * Durability (decision `2026-12-01-run-overhead.md`): `step/end` starts a flush on the thread pool
 * and the next step goes on while it runs; the next step's tools run only once it completed, and
 * `turn/end` is flushed before the turn returns.
 */
import { randomUUID } from 'node:crypto'
import type { Context } from '@deepseek-ai/cordis'
import type { AgentHandle, AnswerCut, ChatRequestBody, CoreSessionEventData, ToolFinalOutcome, ModelProvider, PreStepDecision, ToolCallBlock, ToolResultMessage, TurnEndReason, UserMessage } from '@dsh/contracts'
import type { AgentProgress } from './agent-events.ts'
import { AssistantAssembler } from './assistant-assembly.ts'
import { maybeAutoCompact, type AutoCompactSettings } from './auto-compaction.ts'
import { firePreCompact } from './pre-compact.ts'
import { answerUnansweredCalls } from './interrupted-turn.ts'
import { deriveMessages } from './derive-history.ts'
import { dataOf } from './event-data.ts'
import { isAbortError, errorMessage } from './errors.ts'
import type { Inbox } from './inbox.ts'
import { deepFreeze, messageText } from './message-factory.ts'
import { buildChatRequestBody, requestJsonLength, type RequestBodyInput } from './request-body.ts'
import type { Session } from './session.ts'
import type { SystemPrompt } from './system-prompt.ts'
import { attachedFilesOf, mentionAttachments } from './mention-attachments.ts'
import { runToolCall, type PipelineDeps } from './tool-pipeline.ts'
import type { ToolRegistry } from './tool-registry.ts'
import type { ToolVisibility } from './tool-visibility.ts'
import type { WireMemo } from './wire-memo.ts'

/** Everything a turn needs. */
export interface TurnDeps {
  readonly ctx: Context
  readonly session: Session
  readonly inbox: Inbox
  readonly handle: AgentHandle
  readonly provider: ModelProvider
  readonly registry: ToolRegistry
  /** Tools the session turned off (left out of the request). */
  readonly visibility?: ToolVisibility | undefined
  /** Wire messages and their sizes, shared by every request of the agent. */
  readonly wire: WireMemo
  readonly systemPrompt: SystemPrompt
  readonly pipeline: PipelineDeps
  readonly maxSteps: number
  /** Send the contents of the files a prompt `@`-mentions with it (mention-attachments.ts). */
  readonly attachMentions?: boolean | undefined
  readonly onRequest?: ((body: ChatRequestBody) => void) | undefined
  readonly progress: (event: AgentProgress) => void
  /** Returns true once per loop instance (the first pre-step). */
  readonly takeFirstOfInstance: () => boolean
  /** Automatic compaction settings; absent disables it. */
  readonly autoCompact?: AutoCompactSettings | undefined
  /** Diagnostics sink. */
  readonly log: (line: string) => void
  /** Diagnostics shown once per agent (the same line again is dropped). */
  readonly notice: (line: string) => void
}

/** How a turn ended. */
export interface TurnResult {
  /** Turn number. */
  readonly turn: number
  /** Why it ended. */
  readonly reason: TurnEndReason
  /** The model's last answer text ('' when none). */
  readonly finalText: string
  /** Error message when `reason` is `error`. */
  readonly error?: string
  /** Set when the turn's last answer was cut short by the provider (issue 22 F4; ACP reports `max_tokens` / `refusal`). */
  readonly cut?: AnswerCut
}

type StepOutcome = { kind: 'continue'; finalText: string } | { kind: 'end'; reason: TurnEndReason; finalText: string; cut?: AnswerCut }

/** A model call's answer: its text, its tool calls and whether the provider cut it short. */
interface Answer {
  readonly text: string
  readonly toolCalls: ToolCallBlock[]
  readonly cut?: AnswerCut
}

/** Runs one turn to its end. Rethrows non-abort failures after recording them. */
export async function runTurn(deps: TurnDeps, turn: number, signal: AbortSignal): Promise<TurnResult> {
  const { session } = deps
  session.append('turn/start', { turn })
  let finalText = ''
  const end = (reason: TurnEndReason, error?: string, cut?: AnswerCut): TurnResult => {
    session.append('turn/end', { turn, reason, ...(error === undefined ? {} : { error }) })
    session.sync()
    deps.progress({ type: 'turn-end', turn, reason })
    return { turn, reason, finalText, ...(error === undefined ? {} : { error }), ...(cut === undefined ? {} : { cut }) }
  }
  for (let step = 1; ; step++) {
    if (step > deps.maxSteps) return end('max-steps')
    let outcome: StepOutcome
    try {
      outcome = await runStep(deps, turn, step, signal)
    } catch (error) {
      if (signal.aborted || isAbortError(error)) return end('cancelled')
      end('error', errorMessage(error))
      throw error
    }
    finalText = outcome.finalText === '' ? finalText : outcome.finalText
    if (outcome.kind === 'end') return end(outcome.reason, undefined, outcome.cut)
  }
}

/** Tells the front ends that an automatic compaction just appended its checkpoint (the session's last event). */
function reportCompaction(deps: TurnDeps): void {
  const last = deps.session.events.at(-1)
  const message = last === undefined ? undefined : dataOf(last, 'user/message')?.message
  if (message?.source.kind === 'compaction') deps.progress({ type: 'compacted', summary: messageText(message) })
}

/** `agent/pre-compact` for an automatic compaction of this agent. */
function beforeAutoCompact(deps: TurnDeps, signal: AbortSignal): () => Promise<string | undefined> {
  return () => firePreCompact(deps.ctx, { agent: deps.handle, trigger: 'auto', instructions: '', signal }, deps.log)
}

async function runStep(deps: TurnDeps, turn: number, step: number, signal: AbortSignal): Promise<StepOutcome> {
  const { session, inbox, ctx } = deps
  // Claim first: a cancel during the summary call below must not leave this turn's prompt queued.
  const claimed = inbox.claim(step === 1)
  if (deps.autoCompact !== undefined) {
    const compacted = await maybeAutoCompact({ session, provider: deps.provider, jsonLength: requestJsonLength(requestInput(deps)), settings: deps.autoCompact, signal, log: deps.log, notice: deps.notice, onRequest: deps.onRequest, beforeCompact: beforeAutoCompact(deps, signal) })
    if (compacted) reportCompaction(deps)
  }
  const decision: PreStepDecision = await ctx.waterfall(
    'agent/pre-step',
    { agent: deps.handle, messages: claimed, turn, step, firstOfInstance: deps.takeFirstOfInstance(), signal },
    () => Promise.resolve<PreStepDecision>({ kind: 'enter', messages: claimed }),
  )
  if (decision.kind === 'reject') return { kind: 'end', reason: 'blocked', finalText: '' }
  if (decision.messages.length === 0 && step === 1) return { kind: 'end', reason: 'completed', finalText: '' }
  session.append('step/start', { turn, step })
  let contexts: UserMessage[] = []
  let aborted = true
  try {
    for (const message of decision.messages) appendUser(session, message, turn, step)
    if (step === 1 && deps.attachMentions === true) {
      const attachment = await mentionAttachments(deps.pipeline, decision.messages, signal)
      if (attachment !== undefined) {
        appendUser(session, attachment, turn, step)
        deps.progress({ type: 'attached', files: attachedFilesOf(attachment) ?? [] })
      }
    }
    deps.progress({ type: 'step-start', turn, step })
    const calls = await callModelCompactingOnce(deps, turn, step, signal)
    contexts = await runCalls(deps, turn, step, calls.toolCalls, signal)
    aborted = signal.aborted
    if (aborted) return { kind: 'end', reason: 'cancelled', finalText: calls.text }
    for (const context of contexts) appendUser(session, context, turn, step)
    if (calls.toolCalls.length > 0 || inbox.nextStep.length > 0) return { kind: 'continue', finalText: calls.text }
    const keepGoing = await ctx.serial('agent/turn-stopping', { agent: deps.handle, turn, step, finalText: calls.text, signal })
    if (keepGoing?.kind === 'continue' && keepGoing.messages.length > 0) {
      for (const message of keepGoing.messages) await inbox.append('next-step', message)
      return { kind: 'continue', finalText: calls.text }
    }
    return { kind: 'end', reason: 'completed', finalText: calls.text, ...(calls.cut === undefined ? {} : { cut: calls.cut }) }
  } finally {
    // A step that ended early (an error outside the pipeline) must not leave a call unanswered.
    if (aborted) answerUnansweredCalls(session, { turn, step })
    session.append('step/end', { turn, step, ...(aborted ? { aborted: true } : {}) })
    session.flushSoon()
  }
}

function appendUser(session: Session, message: UserMessage, turn: number, step: number): void {
  const data: CoreSessionEventData['user/message'] = { message, turn, step }
  session.append('user/message', data, { surfaceOp: 'append' })
}

/** What the next request is built from (the same for its size estimate and for the call). */
function requestInput(deps: TurnDeps): RequestBodyInput & { readonly memo: WireMemo } {
  return {
    model: deps.provider.model,
    system: deps.systemPrompt.assemble({ cwd: deps.handle.cwd }, { agent: deps.handle }),
    messages: deriveMessages(deps.session),
    tools: deps.visibility === undefined ? deps.registry.wireTools() : deps.visibility.filter(deps.registry.wireTools()),
    reasoningEcho: deps.provider.reasoningEcho,
    memo: deps.wire,
  }
}

/** True for the provider's "the request is longer than the context window" failure. */
const isContextOverflow = (error: unknown): boolean => error instanceof Error && 'code' in error && error.code === 'MODEL_CONTEXT_LENGTH'

/**
 * Calls the model; when the API refuses the request as longer than its context, compacts once
 * and retries once. A second refusal, or nothing to compact, is one clear error.
 */
async function callModelCompactingOnce(deps: TurnDeps, turn: number, step: number, signal: AbortSignal): Promise<Answer> {
  try {
    return await callModel(deps, turn, step, signal)
  } catch (error) {
    if (!isContextOverflow(error) || signal.aborted) throw error
    const settings = deps.autoCompact ?? { share: 1, useModel: false }
    const compacted = await maybeAutoCompact({ session: deps.session, provider: deps.provider, jsonLength: requestJsonLength(requestInput(deps)), settings, signal, log: deps.log, notice: deps.notice, onRequest: deps.onRequest, overflow: true, beforeCompact: beforeAutoCompact(deps, signal) })
    if (!compacted) throw new ContextOverflowError(`${errorMessage(error)} (nothing earlier in the session could be compacted: shorten the prompt, or start a new session)`, error)
    reportCompaction(deps)
    try {
      return await callModel(deps, turn, step, signal)
    } catch (again) {
      if (!isContextOverflow(again) || signal.aborted) throw again
      throw new ContextOverflowError(`${errorMessage(again)} (still too long after one automatic compaction: shorten the prompt, or start a new session)`, again)
    }
  }
}

/** The request stays longer than the model's context; keeps the provider's code. */
class ContextOverflowError extends Error {
  readonly code = 'MODEL_CONTEXT_LENGTH'
  constructor(message: string, cause: unknown) {
    super(message, { cause })
    this.name = 'ModelError'
  }
}

async function callModel(deps: TurnDeps, turn: number, step: number, signal: AbortSignal): Promise<Answer> {
  const body = buildChatRequestBody(requestInput(deps))
  const { baseUrl } = deps.provider
  deps.session.append('request/header', { turn, step, model: deps.provider.model, provider: deps.provider.id, ...(baseUrl === undefined ? {} : { baseUrl }) })
  deps.onRequest?.(body)
  let assembler = new AssistantAssembler()
  try {
    for await (const event of deps.provider.stream({ body, turn, step }, signal)) {
      if (event.type === 'retry') {
        const { type: _type, ...retry } = event
        deps.session.append('model/retry', { turn, step, ...retry })
        // The failed attempt's output is void: the log gets only the next attempt's message.
        if (retry.discarded === true) assembler = new AssistantAssembler()
        deps.progress({ type: 'retry', attempt: retry.attempt, maxAttempts: retry.maxAttempts, detail: retry.detail, discarded: retry.discarded === true })
        continue
      }
      assembler.push(event)
      if (event.type === 'text' || event.type === 'reasoning') deps.progress(event)
    }
  } catch (error) {
    // A cancelled stream keeps what the person saw, marked, so the next turn knows it was cut off.
    if (signal.aborted || isAbortError(error)) {
      deps.session.append('assistant/message', { turn, step, message: assembler.interrupted(), interrupted: true, ...(assembler.usage === undefined ? {} : { usage: assembler.usage }) }, { surfaceOp: 'append' })
    }
    throw error
  }
  const message = assembler.finish()
  deps.session.append(
    'assistant/message',
    { turn, step, message, ...(assembler.usage === undefined ? {} : { usage: assembler.usage }) },
    { surfaceOp: 'append' },
  )
  const toolCalls = message.content.filter((block): block is ToolCallBlock => block.type === 'tool-call')
  const { cut } = assembler
  return { text: messageText(message), toolCalls, ...(cut === undefined ? {} : { cut }) }
}

function crashedOutcome(name: string, error: unknown): ToolFinalOutcome {
  return { isError: true, content: `The ${name} call failed inside dsh (${errorMessage(error)}). Try again, or choose another approach.`, touched: [], additionalContexts: [], status: 'failed' }
}

async function runCalls(deps: TurnDeps, turn: number, step: number, calls: readonly ToolCallBlock[], signal: AbortSignal): Promise<UserMessage[]> {
  const contexts: UserMessage[] = []
  // A tool's effects must never be on disk ahead of the log of the steps before it.
  if (calls.length > 0) await deps.session.flushed()
  // Output of nested calls (run_code's, ids `<call>:code:<n>`) goes to the row of the call the model made.
  const live: PipelineDeps = { ...deps.pipeline, onOutput: (execution, text) => deps.progress({ type: 'tool-output', callId: execution.callId.split(':code:')[0] ?? execution.callId, text }) }
  for (const call of calls) {
    deps.session.append('tool/call', { turn, step, callId: call.callId, name: call.name, arguments: call.arguments })
    deps.progress({ type: 'tool-start', callId: call.callId, name: call.name, arguments: call.arguments })
    const outcome = await runToolCall(live, { callId: call.callId, name: call.name, rawArguments: call.arguments, signal }).catch((error: unknown) => {
      // Backstop: every tool call must get a result, or later requests are invalid for the API.
      deps.log(`tool ${call.name} (${call.callId}) failed outside the pipeline: ${errorMessage(error)}`)
      return crashedOutcome(call.name, error)
    })
    const message: ToolResultMessage = deepFreeze({
      id: randomUUID(),
      role: 'tool',
      callId: call.callId,
      toolName: call.name,
      isError: outcome.isError,
      content: [{ type: 'text', text: outcome.content }],
      source: { kind: 'tool' },
    })
    deps.session.append('tool/result', { turn, step, message }, { surfaceOp: 'append' })
    deps.progress({ type: 'tool-end', callId: call.callId, name: call.name, outcome })
    contexts.push(...outcome.additionalContexts)
  }
  return contexts
}
