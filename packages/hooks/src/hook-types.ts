/**
 * Contracts of the hooks plugin: the events, a configured hook, where it came from, and what one
 * run of a hook command produced. Types only.
 */
import type { PermissionRule } from '@dsh/contracts'

/** Every event a hook can be configured for (Claude Code's names, plus dsh's own last two). */
export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'PreCompact', 'SessionEnd', 'Notification', 'InstructionsLoaded', 'RootChanged'] as const

/** An event name. */
export type HookEventName = (typeof HOOK_EVENTS)[number]

/** Where a hook was configured. */
export interface HookSource {
  /** `config` (--config), `settings` ($DSH_HOME/settings.yaml) or `project` (.dsh/ or .claude/settings.json). */
  readonly kind: 'config' | 'settings' | 'project'
  /** The file (absolute). */
  readonly file: string
  /**
   * Project files only: whether `dsh hooks trust` pinned this file's current content. Hooks of an
   * untrusted file are listed but never run.
   */
  readonly trusted: boolean
}

/** The tool events: the only ones a hook's `if` applies to. */
export const TOOL_EVENTS: readonly HookEventName[] = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure']

/** A hook's `if`: a permission rule the tool call must match for the hook to run. */
export interface HookCondition {
  /** As written (`Bash(git push *)`). */
  readonly text: string
  /** Parsed, in dsh's tool names (`bash(git push *)`). */
  readonly rule: PermissionRule
}

/** One configured hook command. */
export interface HookEntry {
  /** The event it runs on. */
  readonly event: HookEventName
  /** The matcher as written ('' or absent: every tool); a regular expression matched against the whole tool name. */
  readonly matcher: string
  /** Compiled from `matcher` (anchored at both ends); undefined matches everything. */
  readonly pattern: RegExp | undefined
  /** The shell command (`sh -c`). */
  readonly command: string
  /** Time limit in milliseconds. */
  readonly timeoutMs: number
  /** Where it was configured. */
  readonly source: HookSource
  /** Position in its file, for messages: `PreToolUse[0].hooks[1]`. */
  readonly where: string
  /**
   * `if`: the hook runs only for a call the rule matches, the way a deny rule matches (a bash line
   * when any of its simple commands does, `ls && git push` for `Bash(git push *)`). Tool events only.
   */
  readonly condition?: HookCondition | undefined
  /** `once`: the hook runs at most once per session (the first time its event and matcher fit). */
  readonly once?: boolean | undefined
  /**
   * `async` (or `asyncRewake`): the hook runs in the background. Nothing waits for it and it
   * decides nothing; what it says for the model reaches the session at its next step.
   */
  readonly background?: boolean | undefined
}

/** How one run of a hook command ended. */
export interface HookRun {
  /** The hook that ran. */
  readonly entry: HookEntry
  /** `ok` exit 0; `block` exit 2; `warning` any other exit; `timeout`; `failed-to-start`. */
  readonly outcome: 'ok' | 'block' | 'warning' | 'timeout' | 'failed-to-start'
  /** Exit code (null when it did not exit by itself). */
  readonly exitCode: number | null
  /** Standard output (capped). */
  readonly stdout: string
  /** Standard error (capped). */
  readonly stderr: string
}

/** The JSON a hook prints on stdout (Claude Code's fields that dsh reads). */
export interface HookJsonOutput {
  readonly continue?: boolean
  readonly stopReason?: string
  readonly systemMessage?: string
  readonly decision?: string
  readonly reason?: string
  readonly hookSpecificOutput?: {
    readonly permissionDecision?: string
    readonly permissionDecisionReason?: string
    readonly updatedInput?: unknown
    readonly additionalContext?: string
  }
}
