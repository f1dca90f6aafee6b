/**
 * Process launcher port: how tools that start processes (`bash`, `run_code`) let the composition
 * wrap each launch, for example in a bubblewrap sandbox. Tools never import the sandbox; the
 * composition passes a launcher in their options, and without one they spawn directly.
 */

/** One process a tool is about to start. */
export interface LaunchRequest {
  /** Program to run (a name on PATH or an absolute path). */
  readonly file: string
  /** Its arguments. */
  readonly args: readonly string[]
  /** Working directory (absolute). */
  readonly cwd: string
  /** The environment the tool wants the process to have (already includes its markers). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** The session's writable roots (absolute): what a sandbox binds writable. */
  readonly writableRoots: readonly string[]
  /**
   * True when what the process leaves running in the background may outlive it (the `bash` tool
   * with a tracker that ends them with the host): the sandbox then stays until its init is ended
   * through the process group or marker of the launch. Absent or false: the sandbox, and everything
   * in it, ends when the process exits.
   */
  readonly outlivesCall?: boolean
  /**
   * The session the launch belongs to (a subagent's launches name its parent session): a sandbox
   * gives each session a private temp directory, removed when the session ends. Absent: one shared
   * by the launches without a session.
   */
  readonly session?: string
}

/** What to spawn instead. */
export interface LaunchPlan {
  /** Program to spawn. */
  readonly file: string
  /** Its arguments. */
  readonly args: readonly string[]
  /** The environment to pass (filtered: no model API keys). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** True when the process runs inside a sandbox. */
  readonly sandboxed: boolean
  /** What the sandbox leaves writable (empty when not sandboxed, or nothing is). */
  readonly writable: readonly string[]
}

/** Wraps process launches; must not throw. */
export interface ProcessLauncher {
  /** The plan for one launch. Must not throw; it may read the filesystem (what to protect) and revert what earlier launches planted. */
  plan(request: LaunchRequest): LaunchPlan
  /**
   * A model-visible note to append to a finished command's result when its output shows that the
   * sandbox refused something (a write outside the writable roots): what happened and how to widen
   * the sandbox. `undefined` when the output shows nothing of the kind or the launch was not sandboxed.
   */
  explain(output: string, plan: LaunchPlan): string | undefined
  /** The session ended: what the launcher keeps for it (its private temp directory) goes. Optional; must not throw. */
  endSession?(session: string): void
}
