/**
 * Permission port: how a front end answers an `ask` verdict of the tool pipeline. The answer can
 * allow the one call, allow it and remember the approval for the rest of the session (a command
 * prefix of `bash`, the host of a `web_fetch` URL, or every call of the tool), or reject it with a note the model reads.
 */

/** What an "allow always" approval covers, for the rest of the session. */
export type ApprovalScope =
  | {
      /**
       * Every later `bash` call whose command is a simple command (no `;`, `&`, `|`, redirection,
       * substitution or newline) that starts with `prefix` followed by a space or the end.
       */
      readonly kind: 'command-prefix'
      /** The command words approved, e.g. `npm test` or `git status`. */
      readonly prefix: string
    }
  | {
      /**
       * Every later `bash` call each of whose simple commands starts with one of `prefixes`: the
       * parts of a compound command (`git status && npm test`), approved together.
       */
      readonly kind: 'command-prefixes'
      /** The command words of each part, distinct, in the order they appear (two or more). */
      readonly prefixes: readonly string[]
    }
  | {
      /**
       * Every later `web_fetch` call whose URL's host is `host` exactly (not the names below it):
       * the rule `web_fetch(domain:HOST)`.
       */
      readonly kind: 'domain'
      /** The host, in lower case, without a trailing dot (`docs.python.org`). */
      readonly host: string
    }
  | {
      /** Every later call of the same tool (by name). */
      readonly kind: 'tool'
    }

/** A person's answer to one permission question. */
export type PermissionDecision =
  | {
      /** Run this call only. */
      readonly kind: 'allow-once'
    }
  | {
      /** Run this call and every later call the scope covers, in this session, without asking. */
      readonly kind: 'allow-always'
      /** What the approval covers. */
      readonly scope: ApprovalScope
    }
  | {
      /** Do not run the call; the model gets an error result. */
      readonly kind: 'reject'
      /** Shown to the model in the error result when present (one line; the person's words). */
      readonly note?: string
    }

/**
 * How much the agent may do without asking (ARCHITECTURE §6a). Every front end has a default:
 * `dsh run` `full-auto`, the interactive ones (chat, ACP, web) `ask`.
 * - `read-only`: `write` and `edit` are denied; `bash` and `run_code` run without asking inside a
 *   sandbox in which nothing but a private temp directory is writable.
 * - `ask`: `bash` and `run_code` ask; `write` and `edit` inside the working directory run, writes
 *   elsewhere (additional roots, temp) ask.
 * - `auto-edit`: `write` and `edit` run without asking; `bash` and `run_code` ask.
 * - `full-auto`: nothing asks; shell commands run in the sandbox confined to the writable roots.
 * - `danger-full-access`: nothing asks and shell commands run without a sandbox.
 * A front end that cannot ask (`dsh run`) turns every `ask` into a denial that names the way out.
 */
export type PermissionMode = 'read-only' | 'ask' | 'auto-edit' | 'full-auto' | 'danger-full-access'

/**
 * One allow or deny rule as written in the config, settings or on the command line: a tool name
 * alone (`run_code`: every call) or `tool(pattern)` (`bash(npm test*)`, `write(**\/.env)`).
 */
export interface PermissionRule {
  /** The rule as written (trimmed); what events and messages quote. */
  readonly text: string
  /** Tool name the rule is about. */
  readonly tool: string
  /** The pattern inside the parentheses; absent for a bare tool name (matches every call). */
  readonly pattern?: string
}

/** Who decided a tool call's permission. */
export type PermissionAuthority =
  /** An allow or deny rule (config, settings, command line, or a session rule from "allow always"). */
  | 'rule'
  /** The permission mode. */
  | 'mode'
  /** A person's answer to the question. */
  | 'answer'

/**
 * Payload of the `tool/permission` session event: one per permission decision of a tool call,
 * appended before the call runs (or is refused). Decisions of other guards are not recorded here.
 */
export interface ToolPermissionData {
  /** Provider call id of the call (sub-dispatches: `<parent>:code:<n>`). */
  readonly callId: string
  /** Tool name. */
  readonly tool: string
  /** Whether the call may run. */
  readonly decision: 'allow' | 'deny'
  /** What decided it. */
  readonly by: PermissionAuthority
  /** The permission mode in force. */
  readonly mode: PermissionMode
  /** The deciding rule's text (`by: 'rule'`). */
  readonly rule?: string
  /** For an "allow always" answer: the session rule it added (rebuilt from the log on resume). */
  readonly remember?: string
  /** The further rules the same answer added (a compound command's part prefixes after the first). */
  readonly rememberAlso?: readonly string[]
  /** The person's note with a rejection. */
  readonly note?: string
}

/**
 * Payload of the `skills/grant` plugin event: the `allowed-tools` of a trusted skill (a user skill,
 * or a project skill whose file `dsh skills trust` pinned), recorded as dsh allow rules when the
 * skill is invoked. A grant is in force until the end of the turn it belongs to: `scope: 'turn'`
 * is recorded inside a turn (the `skill` tool), `'next-turn'` by a front end just before the prompt
 * that invokes the skill (`/name args`), for the turn that prompt starts. Grants only spare a
 * question: deny rules, the mode, protected paths, secret locations, the sandbox and a tainted
 * session still decide first.
 */
export interface SkillGrantData {
  /** The skill's key as the catalog names it. */
  readonly skill: string
  /** Its SKILL.md. */
  readonly file: string
  /** dsh rule texts (`bash(git status:*)`, `read`). */
  readonly rules: readonly string[]
  readonly scope: 'turn' | 'next-turn'
}
