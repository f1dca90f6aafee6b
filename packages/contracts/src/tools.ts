/**
 * Tool port: tool definitions, one execution's identity, outcomes and the guard verdicts of the
 * pipeline (`tools/pre-execute` → run → `tools/post-execute` → `tools/result`).
 */
import type { ZodType } from 'zod'
import type { AgentHandle } from './agent.ts'
import type { FileSystemPort } from './fs.ts'
import type { UserMessage } from './messages.ts'

/** Opaque identity of one execution; used as `parent` by composite tools' sub-dispatches. */
export type ToolExecutionToken = symbol

/** One tool execution as hooks see it. Immutable. */
export interface ToolExecution {
  /** Provider call id (sub-dispatches: `<parent>:code:<n>`). */
  readonly callId: string
  /** Tool name. */
  readonly name: string
  /** Parsed, validated, deep-frozen arguments. */
  readonly arguments: unknown
  /** The agent that runs it; absent for executions outside an agent (tests, CLI helpers). */
  readonly agent?: AgentHandle
  /** Token of the enclosing execution for Code Mode sub-dispatches; absent at top level. */
  readonly parent?: ToolExecutionToken
  /** Aborts when the step is cancelled or the tool times out. */
  readonly signal: AbortSignal
  /** This execution's own token (kept when a guard replaced the arguments). */
  readonly token: ToolExecutionToken
  /** Set when the called tool declares it changes nothing (its definition's `readOnly`). */
  readonly readOnly?: true
  /**
   * Set when a guard replaced the model's arguments (`PreExecuteVerdict.updatedArguments`): this is
   * the second pass of the guards, on the arguments that will run; `arguments` here are the model's.
   * A guard that rewrites must not rewrite again on this pass.
   */
  readonly updatedFrom?: ArgumentsUpdateOrigin
}

/** Where replaced arguments came from. */
export interface ArgumentsUpdateOrigin {
  /** The arguments the model sent (validated, frozen). */
  readonly arguments: unknown
  /** Who replaced them, as people read it (`the PreToolUse hook "…" (file: entry)`). */
  readonly by: string
}

/**
 * Arguments a guard wants the call to run with instead of the model's. The pipeline validates them
 * against the tool's schema (invalid: the call is denied) and runs every guard again on them, so
 * the policy decides on what runs; the stricter of the two verdicts holds.
 */
export interface ArgumentsUpdate {
  /** The new arguments (raw: the pipeline parses them with the tool's schema). */
  readonly arguments: unknown
  /** Who replaced them, as people read it. */
  readonly by: string
}

/** A path a tool touched successfully; drives workspace-context discovery. */
export interface TouchedPath {
  /** Canonical absolute path. */
  readonly path: string
  /** What happened to it. */
  readonly kind: 'read' | 'write' | 'edit'
}

/** What a tool's `execute` returns. Tools report expected failures as `isError` results, not throws. */
export type ToolOutput =
  | {
      /** Success. */
      readonly isError?: false
      /** Text for the model. */
      readonly content: string
      /** Paths touched successfully. */
      readonly touched?: readonly TouchedPath[]
      /** Structured data for hooks and UIs; never shown to the model. */
      readonly meta?: Readonly<Record<string, unknown>>
    }
  | {
      /** Failure the model should see. */
      readonly isError: true
      /** What went wrong and how to recover. */
      readonly content: string
      /** Structured data; never shown to the model. */
      readonly meta?: Readonly<Record<string, unknown>>
    }

/** Options of a nested dispatch. */
export interface DispatchOptions {
  /**
   * Also cancels the nested call (combined with the enclosing execution's signal), e.g. when a
   * composite tool's own time limit expires while the nested call is still running.
   */
  readonly signal?: AbortSignal
}

/** Everything a running tool may use. */
export interface ToolRunContext {
  /** Session working directory (absolute). */
  readonly cwd: string
  /** Filesystem port. */
  readonly fs: FileSystemPort
  /** Cancellation for this execution. */
  readonly signal: AbortSignal
  /** This execution. */
  readonly execution: ToolExecution
  /**
   * Composite tools (run_code) dispatch nested calls through the full pipeline with this
   * execution as parent. Nested additional contexts are deferred onto this execution's result.
   */
  dispatch(name: string, args: unknown, options?: DispatchOptions): Promise<ToolFinalOutcome>
  /** Defers a context message onto this execution's own result (composite tools). */
  deferContext(message: UserMessage): void
  /**
   * Output of the running tool as it comes (a command's stdout and stderr, interleaved, decoded),
   * for front ends only: never part of what the model sees, which is the tool's result. Cheap and
   * never throws; absent when nobody listens.
   */
  readonly output?: (text: string) => void
}

/** A tool implementation. */
export interface ToolDefinition<A = unknown> {
  /** Unique name the model calls. */
  readonly name: string
  /** Description shown to the model. */
  readonly description: string
  /** Argument schema; converted to JSON schema for the model, used to validate calls. */
  readonly parameters: ZodType<A>
  /**
   * JSON schema sent to the model instead of converting `parameters` (tools whose schema comes
   * from elsewhere, such as MCP servers); `parameters` still validates the calls.
   */
  readonly wireParameters?: Readonly<Record<string, unknown>>
  /**
   * True when the tool declares it changes nothing (an MCP server's `readOnlyHint`): the
   * permission policy lets it run without asking, and `read-only` mode allows it. Absent for core
   * tools, which the policy classifies by name.
   */
  readonly readOnly?: boolean
  /** Where the tool comes from, for front ends' tool rows (an MCP server's name and its own tool name). */
  readonly origin?: { readonly server: string; readonly tool: string }
  /** Runs the tool. Must honour `run.signal`. Throwing is contained and becomes an error result. */
  execute(args: A, run: ToolRunContext): Promise<ToolOutput>
}

/** `tools/pre-execute` verdict. Guards call `next()` first and may only tighten it. */
export type PreExecuteVerdict =
  | { readonly kind: 'allow'; readonly updatedArguments?: ArgumentsUpdate }
  | {
      readonly kind: 'deny'
      /** Why, as the model reads it: `The <tool> call was denied: <reason>.` (no closing full stop). */
      readonly reason: string
      /**
       * How the model recovers, one sentence that replaces the pipeline's default advice ("Do not
       * retry it unchanged; choose another approach or ask the user."). A guard sets it when the
       * same call becomes right once something is done (a file read, a purpose stated), so the
       * closing advice never contradicts the reason.
       */
      readonly recovery?: string
    }
  | { readonly kind: 'ask'; readonly reason?: string; readonly updatedArguments?: ArgumentsUpdate }

/** `tools/post-execute` decision. */
export type PostExecuteDecision =
  | {
      /** Keep the result (optionally with replaced content). */
      readonly kind: 'accept'
      /** Replacement text for the model; absent keeps the tool's own. */
      readonly content?: string
      /** Context messages to enter history after the step's tool results (in order). */
      readonly additionalContexts?: readonly UserMessage[]
    }
  | {
      /** Turn the result into an error whose text is `feedback`. */
      readonly kind: 'block'
      /** What the model is told instead of the result, with a way forward. */
      readonly feedback: string
      /** Context messages to enter history after the step's tool results (in order). */
      readonly additionalContexts?: readonly UserMessage[]
    }

/** The immutable final outcome published on `tools/result` and returned to composite callers. */
export interface ToolFinalOutcome {
  /** True for denied, blocked, invalid, unknown or failed calls. */
  readonly isError: boolean
  /** Text the model sees. */
  readonly content: string
  /** Paths touched (only when the tool succeeded and was not blocked). */
  readonly touched: readonly TouchedPath[]
  /** Contexts that survived every post-execute listener, in order (includes deferred nested ones). */
  readonly additionalContexts: readonly UserMessage[]
  /** How the call ended. */
  readonly status: 'ok' | 'failed' | 'denied' | 'blocked' | 'invalid-arguments' | 'unknown-tool' | 'cancelled'
  /** Tool metadata. */
  readonly meta?: Readonly<Record<string, unknown>>
}
