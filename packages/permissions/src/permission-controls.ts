/**
 * What a front end may change in the permission guard of a running session (types only): its mode
 * (among the modes that share the sandbox dsh started with, see session-modes.ts; a subagent's
 * session follows its parent's unless it was switched itself) and the session
 * rules that "allow always" answers added. Rules from the config, settings.yaml or the command line
 * are not changed here: they live in files the person edits.
 */
import type { AgentHandle, PermissionMode } from '@dsh/contracts'

/** The controls of one guard, for every session it decides for. */
export interface PermissionControls {
  /** The mode in force for the session (the start mode until it was switched). Never throws. */
  mode(agent: AgentHandle): PermissionMode
  /**
   * Switches the session's mode from its next decision on; returns a one-line refusal (and changes
   * nothing) when the mode needs a sandbox of another shape. Lasts while the process runs.
   */
  setMode(agent: AgentHandle, mode: PermissionMode): string | undefined
  /** {@link mode} by session id, for a front end that holds no agent between prompts (ACP). Never throws. */
  sessionMode(sessionId: string): PermissionMode
  /** {@link setMode} by session id. */
  setSessionMode(sessionId: string, mode: PermissionMode): string | undefined
  /** The session's rules from "allow always" answers, in the order they were given (resume included). */
  sessionRules(agent: AgentHandle): readonly string[]
  /**
   * Removes a session rule and records the removal in the session log (`permissions/forget`), so a
   * resumed session stays without it; false (nothing recorded) when the session has no such rule.
   */
  forget(agent: AgentHandle, rule: string): boolean
}
