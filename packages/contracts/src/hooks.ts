/**
 * Hook events of the kernel, declared once here on the plugin host's global `Events` interface.
 *
 * Dispatch modes:
 * - `agent/pre-step`, `tools/pre-execute`, `tools/post-execute`: waterfall. Each listener gets the
 *   payload and `next`; it must call `next()` unless it intends to veto the listeners inside it.
 * - `agent/turn-stopping`, `agent/pre-compact`: serial; the first non-nullish result wins.
 * - `tools/result`, `session/event`: emit; listener failures are contained and logged by the core.
 */
import type { AgentHandle } from './agent.ts'
import type { UserMessage } from './messages.ts'
import type { SessionEvent, SessionView } from './session.ts'
import type { PostExecuteDecision, PreExecuteVerdict, ToolExecution, ToolFinalOutcome, ToolOutput } from './tools.ts'
import type { SystemPromptService, ToolRegistryService } from './services.ts'
import type { FileSystemPort } from './fs.ts'
import type { WorkspaceRootsService } from './workspace-roots.ts'
// oxlint-disable-next-line import/no-empty-named-blocks, unicorn/require-module-specifiers -- tsc resolves the augmented module only when this file imports it
import type {} from '@deepseek-ai/cordis'

/** Payload of `agent/pre-step`. */
export interface PreStepPayload {
  /** The agent about to step. */
  readonly agent: AgentHandle
  /** Messages claimed from the inbox for this step (prompt first on a turn's first step). */
  readonly messages: readonly UserMessage[]
  /** 1-based turn number. */
  readonly turn: number
  /** 1-based step number within the turn. */
  readonly step: number
  /** True on the first pre-step of this loop instance (fresh start or resume). */
  readonly firstOfInstance: boolean
  /** Cancels the step. */
  readonly signal: AbortSignal
}

/**
 * Result of `agent/pre-step`: the complete batch to enter, or a rejection that ends the turn as
 * `blocked`. An empty batch on a turn's first step ends the turn without a model call.
 */
export type PreStepDecision = { readonly kind: 'enter'; readonly messages: readonly UserMessage[] } | { readonly kind: 'reject'; readonly reason?: string }

/** Payload of `agent/turn-stopping`. */
export interface TurnStoppingPayload {
  /** The agent whose turn is about to end. */
  readonly agent: AgentHandle
  /** Turn number. */
  readonly turn: number
  /** Last step number. */
  readonly step: number
  /** The model's final text of the last step. */
  readonly finalText: string
  /** Cancels the turn; listeners that call a model or wait must honour it. */
  readonly signal: AbortSignal
}

/** A listener may keep the turn going by queueing messages for another step. */
export interface TurnStoppingDecision {
  /** Continue with another step. */
  readonly kind: 'continue'
  /** Messages to enter in the next step (must be non-empty). */
  readonly messages: readonly UserMessage[]
}

/** Payload of `agent/pre-compact`: a compaction of the agent's session is about to happen. */
export interface PreCompactPayload {
  /** The agent whose history is compacted. */
  readonly agent: AgentHandle
  /** `auto`: before a step, the request neared the context window (or the API refused it); `manual`: a person asked (`/compact`). */
  readonly trigger: 'auto' | 'manual'
  /** What the person asked the summary to keep (`/compact TEXT`); '' when none or automatic. */
  readonly instructions: string
  /** Cancels the compaction; listeners that wait must honour it. */
  readonly signal: AbortSignal
}

/**
 * A listener's answer to `agent/pre-compact`: stop a manual compaction with a reason people read.
 * Automatic compaction cannot be stopped (the next request would not fit): its caller reports the
 * reason and compacts.
 */
export interface PreCompactDecision {
  readonly kind: 'block'
  readonly reason: string
}

declare module '@deepseek-ai/cordis' {
  interface Events {
    /** Serial hook before a compaction; the first non-nullish result wins. */
    'agent/pre-compact'(payload: PreCompactPayload): Promise<PreCompactDecision | undefined> | PreCompactDecision | undefined
    /** Waterfall deciding the batch of a step. */
    'agent/pre-step'(payload: PreStepPayload, next: () => Promise<PreStepDecision>): Promise<PreStepDecision>
    /** Serial hook before a turn ends; first non-nullish result wins. */
    'agent/turn-stopping'(payload: TurnStoppingPayload): Promise<TurnStoppingDecision | undefined> | TurnStoppingDecision | undefined
    /** Waterfall of guards before a tool runs; listeners may only tighten the verdict. */
    'tools/pre-execute'(execution: ToolExecution, next: () => Promise<PreExecuteVerdict>): Promise<PreExecuteVerdict>
    /** Waterfall after a tool ran; `output` is what the tool returned (frozen). */
    'tools/post-execute'(execution: ToolExecution, output: ToolOutput, next: () => Promise<PostExecuteDecision>): Promise<PostExecuteDecision>
    /** Emitted once per execution with the immutable final outcome. */
    'tools/result'(execution: ToolExecution, outcome: ToolFinalOutcome): void
    /**
     * Emitted just before a permission question about `execution` goes to the front end's asker
     * (`reason`: why it asks). Observers only; nothing waits for them, and a failing one is logged.
     */
    'tools/asking'(execution: ToolExecution, reason: string | undefined): void
    /** Emitted after each committed session append. */
    'session/event'(session: SessionView, event: SessionEvent): void
  }

  interface Context {
    /** Filesystem port; optional: read it with `ctx.get('fs')`. */
    fs: FileSystemPort
    /** System prompt sections and variables. */
    systemPrompt: SystemPromptService
    /** Registered tools. */
    tools: ToolRegistryService
    /**
     * The host's resolved `$DSH_HOME` (absolute), provided by the runtime host. Plugins that keep
     * files in the home or read the user-global instruction file use it instead of resolving the
     * home themselves, so `--dsh-home` reaches them.
     */
    dshHome: string
    /** Workspace roots of live sessions; optional: read it with `ctx.get('workspaceRoots')`. */
    workspaceRoots: WorkspaceRootsService
  }
}
