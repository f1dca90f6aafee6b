/**
 * The permission decision for one call (pure): deny rules first (deny wins), then the mode; an
 * `ask` becomes `allow` when an allow rule or a session rule covers the call, and `deny` with the
 * way out when the front end cannot ask. Without a sandbox, shell calls outside
 * `danger-full-access` always ask (or are denied when nobody can be asked): never silently unsandboxed.
 */
import type { PermissionAuthority, PermissionMode, PermissionRule } from '@dsh/contracts'
import { callSubject } from './call-subject.ts'
import { askReason, askReasonProtected, askReasonProtectedFile, askReasonReadOutside, askReasonTainted, deniedByRule, deniedCannotAsk, deniedNoSandbox, deniedOutsideRoots, deniedProtected, deniedProtectedFile, deniedReadOnly, deniedReadOnlyMcp, deniedReadOnlyNoSandbox, deniedSecretRead, deniedTainted, type DenialText } from './denial-text.ts'
import type { PathFacts } from './path-facts.ts'
import type { TaintingChange } from './session-taint.ts'
import { modeVerdict, toolClass } from './mode-policy.ts'
import { within } from './root-check.ts'
import { allowingRules, denyingRule, type RuleCall } from './rule-match.ts'

/** Everything one decision depends on. */
export interface PolicyInput {
  readonly mode: PermissionMode
  /** Allow rules (config, settings, command line). */
  readonly allow: readonly PermissionRule[]
  /** Deny rules (config, settings, command line). */
  readonly deny: readonly PermissionRule[]
  /** Rules from "allow always" answers in this session. */
  readonly session: readonly PermissionRule[]
  /**
   * Rules trusted skills' `allowed-tools` grant for the running turn (skill-grants.ts): they only
   * spare the last question, never open a secret location, a protected file or a tainted session.
   */
  readonly granted?: readonly PermissionRule[]
  /** False when shell commands cannot be sandboxed. */
  readonly sandboxAvailable: boolean
  /** False for front ends that have nobody to ask (`dsh run`). */
  readonly interactive: boolean
  /**
   * dsh's own state (`$DSH_HOME`: settings.yaml, whose rules apply live, and the session logs,
   * whose remembered answers a resume reads back): a `write` or `edit` there always asks, or is
   * denied when nobody can be asked, whatever the rules say; only `danger-full-access` lets it through.
   */
  readonly protectedDirs?: readonly string[]
  /**
   * Set when the call is a `write`/`edit` outside every writable root of its session (the roots):
   * the tool would refuse it, so a call that would ask is denied at once, naming `--add-dir`.
   */
  readonly outsideRoots?: readonly string[] | undefined
  /** What the disk says about the call's path (path-facts.ts); absent: only the path as written counts. */
  readonly facts?: PathFacts | undefined
  /** Set for a shell call when a protected file was changed in the session without a question. */
  readonly tainted?: TaintingChange | undefined
  readonly call: RuleCall
}

/** The decision. `ask` carries the question's reason; `deny` the model's text. */
export type PolicyDecision =
  | { readonly verdict: 'allow'; readonly by: Exclude<PermissionAuthority, 'answer'>; readonly rule?: string }
  | { readonly verdict: 'ask'; readonly reason: string }
  | { readonly verdict: 'deny'; readonly by: Exclude<PermissionAuthority, 'answer'>; readonly rule?: string; readonly text: DenialText }

function insideCwd(call: RuleCall): boolean {
  const subject = callSubject(call.tool, call.args, call.cwd)
  return subject.kind === 'path' && within(call.cwd, subject.path)
}

/** The protected directory a write lands in, as written, canonically or through a hard link, if any. */
function protectedTarget(call: RuleCall, dirs: readonly string[], facts: PathFacts | undefined): string | undefined {
  const subject = callSubject(call.tool, call.args, call.cwd)
  if (subject.kind !== 'path') return undefined
  const canonical = facts?.canonical
  return dirs.find((dir) => within(dir, subject.path) || (canonical !== undefined && within(dir, canonical))) ?? facts?.hardLinked
}

/** The allow rules with a pattern (not a bare tool name) that cover the call: rules that name it. */
function namingRules(rules: readonly PermissionRule[], call: RuleCall): PermissionRule[] | undefined {
  return allowingRules(
    rules.filter((rule) => rule.pattern !== undefined),
    call,
  )
}

const joined = (rules: readonly PermissionRule[]): string => rules.map((rule) => rule.text).join(', ')

/** Decides one call. */
export function decide(input: PolicyInput): PolicyDecision {
  const { mode, call } = input
  const denied = denyingRule(input.deny, call)
  if (denied !== undefined) return { verdict: 'deny', by: 'rule', rule: denied.text, text: deniedByRule(denied) }
  const kind = toolClass(call.tool, call.readOnly)
  const base = modeVerdict(mode, kind, insideCwd(call))
  if (base === 'deny') return { verdict: 'deny', by: 'mode', text: kind === 'mcp' ? deniedReadOnlyMcp() : deniedReadOnly() }
  // A write outside every root fails in the tool whatever is decided: never worth a question.
  if (kind === 'write' && base === 'ask' && input.outsideRoots !== undefined) return { verdict: 'deny', by: 'mode', text: deniedOutsideRoots(call, input.outsideRoots) }
  const facts = input.facts
  const rules = [...input.allow, ...input.session]
  if (facts?.secret !== undefined) {
    // A secret location opens only for a rule that names it (a read rule, or one of the tool's own).
    const subject = callSubject(call.tool, call.args, call.cwd)
    const path = subject.kind === 'path' ? subject.path : facts.secret
    const named = namingRules(rules, call) ?? namingRules(rules, { ...call, tool: 'read', args: { file_path: path } })
    if (named === undefined) return { verdict: 'deny', by: 'mode', text: deniedSecretRead(call, facts.secret) }
    return { verdict: 'allow', by: 'rule', rule: joined(named) }
  }
  const guarded = kind === 'write' && mode !== 'danger-full-access' && input.outsideRoots === undefined ? protectedTarget(call, input.protectedDirs ?? [], facts) : undefined
  if (guarded !== undefined) return input.interactive ? { verdict: 'ask', reason: askReasonProtected(call, guarded) } : { verdict: 'deny', by: 'mode', text: deniedProtected(guarded) }
  const protectedFile = kind === 'write' && mode !== 'danger-full-access' && input.outsideRoots === undefined ? facts?.protectedFile : undefined
  if (protectedFile !== undefined) {
    const named = namingRules(rules, call)
    if (named !== undefined) return { verdict: 'allow', by: 'rule', rule: joined(named) }
    return input.interactive ? { verdict: 'ask', reason: askReasonProtectedFile(call, protectedFile.shown, protectedFile.reason) } : { verdict: 'deny', by: 'mode', text: deniedProtectedFile(call, protectedFile.shown, protectedFile.reason) }
  }
  if (kind === 'shell' && !input.sandboxAvailable && mode !== 'danger-full-access') {
    if (mode === 'read-only') return { verdict: 'deny', by: 'mode', text: deniedReadOnlyNoSandbox() }
    return input.interactive ? { verdict: 'ask', reason: askReason(mode, call, true) } : { verdict: 'deny', by: 'mode', text: deniedNoSandbox() }
  }
  const readOutside = mode === 'ask' && facts?.readOutside !== undefined
  if (base === 'allow' && !readOutside) return { verdict: 'allow', by: 'mode' }
  if (kind === 'shell' && input.tainted !== undefined) {
    const { shown, reason } = input.tainted
    return input.interactive ? { verdict: 'ask', reason: askReasonTainted(call, shown) } : { verdict: 'deny', by: 'mode', text: deniedTainted(call, shown, reason) }
  }
  const allowed = allowingRules([...rules, ...(input.granted ?? [])], call)
  if (allowed !== undefined) return { verdict: 'allow', by: 'rule', rule: joined(allowed) }
  if (readOutside) return input.interactive ? { verdict: 'ask', reason: askReasonReadOutside(call) } : { verdict: 'deny', by: 'mode', text: deniedCannotAsk(mode, call) }
  return input.interactive ? { verdict: 'ask', reason: askReason(mode, call, false) } : { verdict: 'deny', by: 'mode', text: deniedCannotAsk(mode, call) }
}
