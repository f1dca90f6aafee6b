/**
 * Message contracts: what the model sees (`content`) and where it came from (`source`).
 *
 * Messages are immutable once created. The core never wraps or rewrites `content`: the model
 * sees it verbatim. `source` is persisted in the session log but never rendered to the model.
 */

/** Opaque message identifier (a UUID in practice). */
export type MessageId = string

/** Plain text shown to the model verbatim. */
export interface TextBlock {
  /** Discriminant. */
  readonly type: 'text'
  /** The text. Never mutated after creation. */
  readonly text: string
}

/** A tool call requested by the model; only appears in assistant messages. */
export interface ToolCallBlock {
  /** Discriminant. */
  readonly type: 'tool-call'
  /** Provider call id; unique within the session. The matching tool result carries it. */
  readonly callId: string
  /** Tool name as the model wrote it (may name an unknown tool). */
  readonly name: string
  /** Raw JSON argument text as the model produced it; parsed by the tool pipeline, not here. */
  readonly arguments: string
}

/**
 * Model reasoning (DeepSeek `reasoning_content`). Kept in the log, never shown as the answer;
 * providers decide whether the wire format requires sending it back.
 */
export interface ReasoningBlock {
  /** Discriminant. */
  readonly type: 'reasoning'
  /** Reasoning text. */
  readonly text: string
}

/** Every content block kind. */
export type ContentBlock = TextBlock | ToolCallBlock | ReasoningBlock

/** Forms of plugin-contributed context (see ARCHITECTURE §3.1). */
export type PluginContextForm = 'instructions' | 'notice' | 'snapshot' | 'catalog' | 'relay'

/** One persisted instruction-state transition of workspace-context (typed, never parsed from prose). */
export interface InstructionChange {
  /** `set`: scope newly loaded; `replace`: content or winning path changed; `remove`: no candidate left (a tombstone). */
  readonly action: 'set' | 'replace' | 'remove'
  /** Unambiguous scope key (a directory key or the user-global key); see the plugin README. */
  readonly scope: string
  /** Model-visible path of the file (root-relative, or the user-global display path). */
  readonly path: string
  /** On a candidate switch, the model-visible path that no longer applies. */
  readonly previousPath?: string
  /** SHA-256 hex of the exact rendered source content; absent for `remove`. */
  readonly digest?: string
  /** True when the content was truncated by the byte budget (the digest is still of the full file). */
  readonly truncated?: boolean
  /**
   * Set on a `replace` without `digest`: the file changed but can no longer be loaded, for this
   * definite reason; the scope stays in effect with the model told its text may be outdated.
   */
  readonly unloadable?: 'not-utf8' | 'binary' | 'too-large' | 'escaping-link' | 'symlink-refused'
  /**
   * Set on a `set` / `replace` whose path leads to the same file as another scope's (a link, a hard
   * link; decision D9): the content was not repeated, only a line naming that scope. The scope is in
   * effect only while `sameAs.scope` is loaded; readers treat it as not visible otherwise.
   */
  readonly sameAs?: { readonly scope: string; readonly path: string }
  /**
   * Set on a `set` / `replace` whose full content reached the model as the result of this
   * top-level `read` call (decision D9): the message only names the file as now in effect. The scope
   * is in effect only while that tool result is on the visible surface; readers treat it as not
   * visible once compaction shadows it.
   */
  readonly readCallId?: string
  /** Workspace root this scope belongs to, for multi-root contributions; absent for the primary root. */
  readonly root?: string
}

/** Source of a workspace-instructions message. Persisted state only; never shown to the model. */
export interface WorkspaceInstructionsSource {
  /** Discriminant. */
  readonly kind: 'workspace-instructions'
  /** Metadata format version; readers ignore versions they do not know. */
  readonly version: 1
  /** Which plugin produced it (`workspace-context` or `multi-root-workspace`). */
  readonly plugin: string
  /** True for a complete baseline (it supersedes all earlier baselines of the same plugin). */
  readonly baseline?: boolean
  /**
   * Normalised discovery settings + project root. On a baseline: a visible baseline with another
   * identity is incompatible and gets superseded. On a change batch (no `baseline`): the settings
   * the batch was computed under, so a later settings change is recognised even without a baseline.
   */
  readonly baselineIdentity?: string
  /** The transitions this message renders, in render order. */
  readonly changes: readonly InstructionChange[]
}

/** Who or what produced a message. Discriminated by `kind`; readers must handle every kind. */
export type MessageSource =
  | {
      /** A person typed it. */
      readonly kind: 'user'
    }
  | {
      /** Plugin-contributed context. */
      readonly kind: 'plugin'
      /** Plugin name. */
      readonly plugin: string
      /** Context form. */
      readonly form: PluginContextForm
      /** Plugin-owned persisted data (never rendered). */
      readonly data?: unknown
    }
  | WorkspaceInstructionsSource
  | {
      /** A compaction checkpoint. */
      readonly kind: 'compaction'
      /** Checkpoint id. */
      readonly checkpointId: string
      /** How the summary was produced. */
      readonly summarizer: 'deterministic' | 'model'
    }
  | {
      /** First message of a child session. */
      readonly kind: 'delegation'
      /** Parent session id. */
      readonly parentSession: string
      /** Parent tool call id that started the child. */
      readonly parentCallId: string
    }
  | {
      /** Produced by the model. */
      readonly kind: 'model'
    }
  | {
      /** Produced by a tool. */
      readonly kind: 'tool'
    }

/** A user-role message (typed prompts and every kind of injected context). */
export interface UserMessage {
  /** Unique id. */
  readonly id: MessageId
  /** Discriminant. */
  readonly role: 'user'
  /** Shown to the model verbatim. */
  readonly content: readonly TextBlock[]
  /** Provenance; persisted, not rendered. */
  readonly source: MessageSource
}

/** Token usage reported by a provider for one call. */
export interface Usage {
  /** Prompt tokens. */
  readonly inputTokens: number
  /** Completion tokens. */
  readonly outputTokens: number
  /** Prompt tokens served from the provider's prefix cache (DeepSeek `prompt_cache_hit_tokens`). */
  readonly cacheHitTokens?: number
  /** Prompt tokens not served from the cache (DeepSeek `prompt_cache_miss_tokens`), when reported. */
  readonly cacheMissTokens?: number
  /** Completion tokens spent on reasoning (`completion_tokens_details.reasoning_tokens`; part of `outputTokens`), when reported. */
  readonly reasoningTokens?: number
}

/** A model response. */
export interface AssistantMessage {
  /** Unique id. */
  readonly id: MessageId
  /** Discriminant. */
  readonly role: 'assistant'
  /** Text, reasoning and tool-call blocks in stream order. */
  readonly content: readonly ContentBlock[]
  /** Always the model. */
  readonly source: { readonly kind: 'model' }
}

/** The result of one tool call, as the model sees it. */
export interface ToolResultMessage {
  /** Unique id. */
  readonly id: MessageId
  /** Discriminant. */
  readonly role: 'tool'
  /** The call this answers. */
  readonly callId: string
  /** Name of the tool that ran (or was requested). */
  readonly toolName: string
  /** True for denied, blocked, invalid or failed calls; content then says how to recover. */
  readonly isError: boolean
  /** Result text shown to the model. */
  readonly content: readonly TextBlock[]
  /** Always a tool. */
  readonly source: { readonly kind: 'tool' }
}

/** Any message in model history. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage
