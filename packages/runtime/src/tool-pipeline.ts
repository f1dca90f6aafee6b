/**
 * The tool pipeline: parse and validate arguments, `tools/pre-execute` guards, run the tool,
 * `tools/post-execute` policy, then publish the immutable outcome on `tools/result`.
 *
 * Every failure the model should see becomes an error outcome whose text says how to recover:
 * unknown tool, malformed JSON, schema violations, denial, blocking, a thrown tool, cancellation.
 */
import { errorMessage } from './errors.ts'
import type { Context } from '@deepseek-ai/cordis'
import type { AgentHandle, FileSystemPort, PermissionDecision, PostExecuteDecision, ToolDefinition, ToolExecution, ToolFinalOutcome, ToolOutput, ToolRunContext, UserMessage } from '@dsh/contracts'
import type { ApprovalMemory } from './approval-memory.ts'
import { describeZodError, runGuardPasses } from './guard-passes.ts'
import type { ToolVisibility } from './tool-visibility.ts'
import { deepFreeze } from './message-factory.ts'
import type { ToolRegistry } from './tool-registry.ts'

/**
 * Decides `ask` verdicts (interactive approval). `true` or `allow-once` runs the call; `allow-always`
 * runs it and remembers the scope for the session; `false` or `reject` refuses it (a reject note is
 * quoted to the model).
 */
export type AskPermission = (execution: ToolExecution, reason: string | undefined) => Promise<boolean | PermissionDecision>

/** What the pipeline needs from its host. */
export interface PipelineDeps {
  /** Plugin host context (hooks). */
  readonly ctx: Context
  /** Tool registry. */
  readonly registry: ToolRegistry
  /** Filesystem port handed to tools. */
  readonly fs: FileSystemPort | undefined
  /** Working directory. */
  readonly cwd: string
  /** The agent, when running inside one. */
  readonly agent?: AgentHandle
  /** Approval for `ask` verdicts; absent means `ask` is treated as a denial. */
  readonly askPermission?: AskPermission | undefined
  /** The session's "allow always" answers, recorded for display (they do not skip a question: see `guard`). */
  readonly approvals?: ApprovalMemory | undefined
  /** Tools the session turned off: their calls are refused with the way back. */
  readonly visibility?: ToolVisibility | undefined
  /** Diagnostics sink for contained listener failures. */
  readonly log: (line: string) => void
  /** Receives the output of running tools (`ToolRunContext.output`), nested calls included; must not throw. */
  readonly onOutput?: ((execution: ToolExecution, text: string) => void) | undefined
}

/** One call to run. */
export interface PipelineCall {
  /** Call id. */
  readonly callId: string
  /** Tool name. */
  readonly name: string
  /** Raw JSON text (model calls) or an already-parsed value (nested dispatches). */
  readonly rawArguments: unknown
  /** Cancellation. */
  readonly signal: AbortSignal
  /** Enclosing execution for nested dispatches. */
  readonly parent?: ToolExecution
}

/** What a denied call's result ends with unless the guard says how to recover. */
const DEFAULT_DENIAL_ADVICE = 'Do not retry it unchanged; choose another approach or ask the user.'

function failure(status: ToolFinalOutcome['status'], content: string): ToolFinalOutcome {
  return deepFreeze({ isError: true, content, touched: [], additionalContexts: [], status })
}

function parseArguments(raw: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  if (typeof raw !== 'string') return { ok: true, value: raw }
  if (raw.trim() === '') return { ok: true, value: {} }
  try {
    return { ok: true, value: JSON.parse(raw) }
  } catch (error) {
    return { ok: false, message: errorMessage(error) }
  }
}

/** Runs one call through the whole pipeline. Never throws for call-level failures. */
export async function runToolCall(deps: PipelineDeps, call: PipelineCall): Promise<ToolFinalOutcome> {
  const hidden = deps.visibility?.hiding(call.name)
  if (hidden !== undefined) return failure('unknown-tool', `The tool "${call.name}" is turned off for this session (the user can turn it back on with ${hidden.enable}). Use the tools you were given instead.`)
  // A tool of a server that is still starting is waited for; everything else is looked up at once.
  if (deps.registry.get(call.name) === undefined) await deps.registry.settle(call.name)
  const tool = deps.registry.get(call.name)
  if (tool === undefined) {
    const names = deps.registry.list().map((t) => t.name).join(', ')
    return failure('unknown-tool', `Unknown tool "${call.name}". Call one of the available tools instead: ${names}.`)
  }
  const parsed = parseArguments(call.rawArguments)
  if (!parsed.ok) {
    return failure('invalid-arguments', `The arguments for ${call.name} are not valid JSON (${parsed.message}). Send a single JSON object that matches the tool's parameter schema.`)
  }
  const validated = tool.parameters.safeParse(parsed.value)
  if (!validated.success) {
    return failure('invalid-arguments', `Invalid arguments for ${call.name}: ${describeZodError(validated.error)}. Fix these fields and call the tool again.`)
  }
  const execution: ToolExecution = Object.freeze({
    callId: call.callId,
    name: call.name,
    arguments: deepFreeze(structuredClone(validated.data)),
    signal: call.signal,
    token: Symbol(call.callId),
    ...(tool.readOnly === true ? { readOnly: true as const } : {}),
    ...(deps.agent === undefined ? {} : { agent: deps.agent }),
    ...(call.parent === undefined ? {} : { parent: call.parent.token }),
  })
  const guarded = await guard(deps, tool, execution, validated.data)
  if (guarded.kind === 'refused') return publish(deps, guarded.execution, guarded.outcome)
  // A guard may have replaced the arguments: what runs (and what observers see) is the replacement.
  const running = guarded.execution
  const deferred: UserMessage[] = []
  const output = await executeTool(deps, tool.execute.bind(tool), guarded.args, running, deferred)
  const decision = await postExecute(deps, running, output)
  return publish(deps, running, finalOutcome(output, decision, deferred, call.signal.aborted))
}

/** What {@link guard} decided: run `execution` with `args`, or refuse with `outcome`. */
type Guarded = { readonly kind: 'run'; readonly execution: ToolExecution; readonly args: unknown } | { readonly kind: 'refused'; readonly execution: ToolExecution; readonly outcome: ToolFinalOutcome }

/** A boolean answer as a decision. */
function toDecision(answer: boolean | PermissionDecision): PermissionDecision {
  if (answer === true) return { kind: 'allow-once' }
  if (answer === false) return { kind: 'reject' }
  return answer
}

/** Runs the `tools/pre-execute` guards (again on replaced arguments) and any approval. */
async function guard(deps: PipelineDeps, tool: Pick<ToolDefinition, 'parameters'>, original: ToolExecution, args: unknown): Promise<Guarded> {
  const { name, signal } = original
  let execution = original
  const refuse = (outcome: ToolFinalOutcome): Guarded => ({ kind: 'refused', execution, outcome })
  try {
    const verdict = await runGuardPasses({ ctx: deps.ctx, tool, execution: original, args, log: deps.log })
    if (verdict.kind === 'deny') return refuse(failure('denied', `The ${name} call was denied: ${verdict.reason}. ${verdict.recovery ?? DEFAULT_DENIAL_ADVICE}`))
    execution = verdict.execution
    // Every `ask` reaches the asker: what an earlier "allow always" covers is the permission
    // policy's to allow (its session rules), and a call it still asks about (a shell command
    // without a sandbox) must be asked about again, never run silently.
    if (verdict.kind === 'ask') {
      if (deps.askPermission !== undefined) announceQuestion(deps, execution, verdict.reason)
      const decision = toDecision(deps.askPermission === undefined ? false : await deps.askPermission(execution, verdict.reason))
      if (decision.kind === 'reject') {
        const why = verdict.reason === undefined ? 'it needs the user\'s approval' : verdict.reason
        const note = decision.note === undefined || decision.note.trim() === '' ? '' : ` The user said: "${decision.note.trim()}".`
        return refuse(failure('denied', `The ${name} call was not approved (${why}).${note} Ask the user how to proceed or choose another approach.`))
      }
      if (decision.kind === 'allow-always') deps.approvals?.remember(execution, decision.scope)
    }
    if (signal.aborted) return refuse(failure('cancelled', `The ${name} call was cancelled before it ran.`))
    return { kind: 'run', execution, args: verdict.args }
  } catch (error) {
    // A guard or the approval prompt failed: the call must not run, and the model must still get a result.
    if (signal.aborted) return refuse(failure('cancelled', `The ${name} call was cancelled before it ran.`))
    deps.log(`tools/pre-execute failed for ${name} (${execution.callId}): ${errorMessage(error)}`)
    return refuse(failure('failed', `The ${name} call was not run because a guard failed (${errorMessage(error)}). Try again, or choose another approach.`))
  }
}

/**
 * Runs the `tools/post-execute` policy. A failing listener fails closed: the result is withheld
 * (a redacting or blocking policy that crashed must not leak what it guards), and the model is told
 * the call ran.
 */
async function postExecute(deps: PipelineDeps, execution: ToolExecution, output: ToolOutput): Promise<PostExecuteDecision> {
  try {
    return await deps.ctx.waterfall('tools/post-execute', execution, deepFreeze(output), () => Promise.resolve<PostExecuteDecision>({ kind: 'accept' }))
  } catch (error) {
    deps.log(`tools/post-execute failed for ${execution.name} (${execution.callId}): ${errorMessage(error)}`)
    return {
      kind: 'block',
      feedback: `The ${execution.name} call ran, but its result could not be checked (${errorMessage(error)}), so it is withheld. Its effects, if any, happened; check the current state before retrying.`,
    }
  }
}

async function executeTool(
  deps: PipelineDeps,
  execute: (args: unknown, run: ToolRunContext) => Promise<ToolOutput>,
  args: unknown,
  execution: ToolExecution,
  deferred: UserMessage[],
): Promise<ToolOutput> {
  let nested = 0
  const onOutput = deps.onOutput
  const run: ToolRunContext = {
    ...(onOutput === undefined ? {} : { output: (text: string) => onOutput(execution, text) }),
    cwd: deps.cwd,
    get fs(): FileSystemPort {
      if (deps.fs === undefined) throw new Error('no filesystem provider is configured')
      return deps.fs
    },
    signal: execution.signal,
    execution,
    dispatch: async (name, nestedArgs, options) => {
      nested += 1
      const signal = options?.signal === undefined ? execution.signal : AbortSignal.any([execution.signal, options.signal])
      const outcome = await runToolCall(deps, { callId: `${execution.callId}:code:${nested}`, name, rawArguments: nestedArgs, signal, parent: execution })
      deferred.push(...outcome.additionalContexts)
      return outcome
    },
    deferContext: (message) => {
      deferred.push(message)
    },
  }
  try {
    return await execute(args, run)
  } catch (error) {
    // A thrown tool is a failure the model should see, not a crash of the loop.
    return { isError: true, content: `The ${execution.name} tool failed: ${errorMessage(error)}. Check the arguments and try again, or use another tool.` }
  }
}

/**
 * The outcome of a call that ran. A tool that finished keeps its result even when the step was
 * cancelled meanwhile (its effects happened); an error it returned after the cancel is `cancelled`.
 */
function finalOutcome(output: ToolOutput, decision: PostExecuteDecision, deferred: readonly UserMessage[], aborted: boolean): ToolFinalOutcome {
  const meta = output.meta === undefined ? {} : { meta: output.meta }
  if (decision.kind === 'block') {
    return deepFreeze({ isError: true, content: decision.feedback, touched: [], additionalContexts: [...deferred, ...(decision.additionalContexts ?? [])], status: 'blocked', ...meta })
  }
  const contexts = [...deferred, ...(decision.additionalContexts ?? [])]
  if (output.isError === true) {
    return deepFreeze({ isError: true, content: decision.content ?? output.content, touched: [], additionalContexts: contexts, status: aborted ? 'cancelled' : 'failed', ...meta })
  }
  return deepFreeze({ isError: false, content: decision.content ?? output.content, touched: output.touched ?? [], additionalContexts: contexts, status: 'ok', ...meta })
}

/** Tells observers a question is about to be asked (the hooks' Notification); they cannot hold it up. */
function announceQuestion(deps: PipelineDeps, execution: ToolExecution, reason: string | undefined): void {
  deps.ctx.parallel('tools/asking', execution, reason).catch((error: unknown) => {
    // An observer cannot change the question; a failing one is logged and ignored.
    deps.log(`tools/asking listener failed for ${execution.name} (${execution.callId}): ${errorMessage(error)}`)
  })
}

async function publish(deps: PipelineDeps, execution: ToolExecution, outcome: ToolFinalOutcome): Promise<ToolFinalOutcome> {
  try {
    await deps.ctx.parallel('tools/result', execution, outcome)
  } catch (error) {
    // Observers of the final outcome cannot change it; a failing observer is logged and ignored.
    deps.log(`tools/result listener failed for ${execution.name} (${execution.callId}): ${errorMessage(error)}`)
  }
  return outcome
}
