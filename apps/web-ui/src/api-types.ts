/** Shapes of the server's answers the page reads (mirrors of `@dsh/web`'s JSON). Types only. */
import type { TodoEntry } from './todo-list.tsx'

export interface ServerState {
  readonly cwd: string
  readonly docs: boolean
  readonly docsOff: string | null
  /** The session to show first: the one opened at start-up while it is open, else the newest open one; null when none is open. */
  readonly firstSession: string | null
}

export interface SessionRow {
  readonly id: string
  readonly title: string
  readonly updatedAt: string
  readonly live: boolean
  readonly busy: boolean
  /** A permission question of the session waits for an answer. */
  readonly waiting: boolean
}

/** One @-mentioned file of a prompt, and why it was not sent (absent: it was). */
export interface AttachedFile {
  readonly path: string
  readonly refused?: string
}

export type HistoryItem =
  | { readonly kind: 'user'; readonly text: string; readonly turn?: number }
  | { readonly kind: 'reasoning'; readonly text: string }
  | { readonly kind: 'assistant'; readonly text: string }
  | { readonly kind: 'tool'; readonly callId: string; readonly name: string; readonly arguments: string; readonly result?: string; readonly isError?: boolean; /** The last of what the running call printed (live only). */ readonly output?: string }
  | { readonly kind: 'attached'; readonly files: readonly AttachedFile[] }
  /** Where a compaction summarised the history before it; `summary` is what the model has instead. */
  | { readonly kind: 'compacted'; readonly summary: string }

export interface ApprovalView {
  readonly id: string
  /** The tool call that asks. */
  readonly callId?: string
  readonly tool: string
  readonly code: string
  readonly reason?: string
  /** What "always" covers; absent when only "once" (and maybe the whole tool) is on offer. */
  readonly always?: { readonly kind: 'command-prefix'; readonly prefix: string } | { readonly kind: 'command-prefixes'; readonly prefixes: readonly string[] } | { readonly kind: 'domain'; readonly host: string } | { readonly kind: 'tool' }
  /** True when "always allow the whole tool" is offered besides (a compound command asked about again). */
  readonly alwaysTool: boolean
}

export type Progress =
  | { readonly type: 'step-start'; readonly turn: number; readonly step: number }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'tool-start'; readonly callId: string; readonly name: string; readonly arguments: string }
  | { readonly type: 'tool-output'; readonly callId: string; readonly text: string }
  | { readonly type: 'tool-end'; readonly callId: string; readonly name: string; readonly outcome: { readonly isError: boolean; readonly content: string; readonly status: string } }
  | { readonly type: 'turn-end'; readonly turn: number; readonly reason: string }
  /** The files the prompt @-mentioned went with it (a `refused` one was named instead). */
  | { readonly type: 'attached'; readonly files: readonly AttachedFile[] }
  /** A retried model call; with `discarded`, the text streamed since `step-start` is void. */
  | { readonly type: 'retry'; readonly attempt: number; readonly maxAttempts: number; readonly detail: string; readonly discarded: boolean }
  /** An automatic compaction replaced the history before this point; `summary` is what the model has instead. */
  | { readonly type: 'compacted'; readonly summary: string }

export type WebEvent =
  | { readonly kind: 'progress'; readonly event: Progress }
  | { readonly kind: 'prompt'; readonly text: string }
  | { readonly kind: 'approval'; readonly approval: ApprovalView }
  | { readonly kind: 'approval-done'; readonly id: string }
  | { readonly kind: 'busy'; readonly busy: boolean }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'mode'; readonly mode: string }

/** The mode menu of a session: the permission mode in force and the modes it can switch to. */
export interface ModeView {
  readonly current: string
  readonly available: readonly { readonly id: string; readonly name: string; readonly description: string }[]
}

/** A message of the browser-wide stream (`/api/stream`). */
export type StreamMessage = { readonly kind: 'hello' } | { readonly kind: 'session'; readonly session: string; readonly seq: number; readonly event: WebEvent } | { readonly kind: 'sessions' } | { readonly kind: 'closed'; readonly session: string }

/** The answer of `GET /sessions`: the open sessions and the closed ones, each newest first. */
export interface SessionsAnswer {
  readonly sessions: readonly SessionRow[]
  readonly closed: readonly SessionRow[]
}

/** The answer of `/sessions/:id/history`: what is stored, the questions waiting, and the event number it includes. */
export interface HistoryAnswer {
  readonly items: readonly HistoryItem[]
  readonly busy: boolean
  readonly seq: number
  readonly approvals: readonly ApprovalView[]
  readonly usage: UsageView
  /** Absent or null: this dsh web offers no mode menu. */
  readonly mode?: ModeView | null
  /** The session's checklist as the log holds it (kept through a compaction); absent from an older dsh web. */
  readonly todos?: readonly TodoEntry[]
}

/** Usage figures of a session (`/sessions/:id/usage`); absent fields are unknown. */
export interface UsageView {
  readonly contextTokens?: number
  readonly contextWindow: number
  readonly cacheHitShare?: number
  /** What the session's calls cost (only when the model's prices are known). */
  readonly cost?: { readonly amount: number; readonly currency: string }
}

export interface FolderRow {
  readonly id: string
  readonly ordinal: number
  readonly path: string
  readonly alias: string | null
  readonly origin: string
  readonly state: string
  readonly detail: string | null
}

export interface FoldersListing {
  readonly primary: string
  readonly roots: readonly FolderRow[]
  readonly problem: string | null
  /** Set on the answer to an addition of a risky folder (a system directory, home, $DSH_HOME). */
  readonly warning?: string | null
}

export interface DocumentEntry {
  readonly name: string
  readonly role: string
  readonly level?: string
  readonly path?: string
  readonly chars: number
  readonly saveTo: string
  /** Where a save at each level goes. */
  readonly saveTargets: { readonly session: string; readonly workspace: string }
}

export interface DocumentsView {
  readonly sessionId: string
  readonly cwd: string
  /** The session's own documents folder. */
  readonly folder: string
  /** The workspace-level folder every session of the cwd shares. */
  readonly workspaceFolder: string
  readonly documents: readonly DocumentEntry[]
}

export interface FieldInfo {
  readonly name: string
  readonly description: string
}

export interface DocsSettings {
  readonly switches: Record<string, boolean>
  readonly switchFields: readonly FieldInfo[]
  readonly settings: { readonly value: Record<string, boolean | number>; readonly base: Record<string, boolean | number>; readonly overridden: readonly string[] } | null
  readonly settingFields: readonly FieldInfo[]
  readonly folder: string
  readonly workspaceFolder: string
}

export interface SweepPreview {
  readonly folder: string
  readonly orphans: readonly string[]
  readonly kept: readonly { readonly name: string; readonly reason: string }[]
}

export interface ContextView {
  readonly cwd: string
  readonly session: readonly string[]
  readonly workspace: readonly string[]
  /** The MCP servers with their states (empty: none configured). */
  readonly mcp: readonly { readonly name: string; readonly transport: string; readonly source: string; readonly state: string }[]
}

/** What a rewind to before a turn would change (GET /sessions/:id/rewind/:turn). */
export interface RewindPreview {
  readonly turn: number
  readonly files: readonly { readonly path: string; readonly action: 'restore' | 'remove' }[]
  /** Messages that leave the model's view. */
  readonly conversation: number
  readonly conflicts: readonly { readonly path: string; readonly diff: readonly string[] }[]
  readonly unrestorable: readonly string[]
  readonly problems: readonly string[]
}
