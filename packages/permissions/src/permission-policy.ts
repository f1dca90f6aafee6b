/**
 * The permission decision for one call (pure): deny rules first (deny wins), then the mode; an
 * `ask` becomes `allow` when an allow rule or a session rule covers the call, and `deny` with the
 * way out when the front end cannot ask. Without a sandbox, shell calls outside
 * `danger-full-access` always ask (or are denied when nobody can be asked): never silently unsandboxed.
 */
import type { PermissionAuthority, PermissionMode, PermissionRule } from '@dsh/contracts'
import { callSubject } from './call-subject.ts'
import { askReason, askReasonProtected, deniedByRule, deniedCannotAsk, deniedNoSandbox, deniedOutsideRoots, deniedProtected, deniedReadOnly, deniedReadOnlyMcp, deniedReadOnlyNoSandbox, type DenialText } from './denial-text.ts'
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

/** The protected directory a write lands in, if any. */
function protectedTarget(call: RuleCall, dirs: readonly string[]): string | undefined {
  const subject = callSubject(call.tool, call.args, call.cwd)
  return subject.kind === 'path' ? dirs.find((dir) => within(dir, subject.path)) : undefined
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
  const guarded = kind === 'write' && mode !== 'danger-full-access' && input.outsideRoots === undefined ? protectedTarget(call, input.protectedDirs ?? []) : undefined
  if (guarded !== undefined) return input.interactive ? { verdict: 'ask', reason: askReasonProtected(call, guarded) } : { verdict: 'deny', by: 'mode', text: deniedProtected(guarded) }
  if (kind === 'shell' && !input.sandboxAvailable && mode !== 'danger-full-access') {
    if (mode === 'read-only') return { verdict: 'deny', by: 'mode', text: deniedReadOnlyNoSandbox() }
    return input.interactive ? { verdict: 'ask', reason: askReason(mode, call, true) } : { verdict: 'deny', by: 'mode', text: deniedNoSandbox() }
  }
  if (base === 'allow') return { verdict: 'allow', by: 'mode' }
  const allowed = allowingRules([...input.allow, ...input.session], call)
  if (allowed !== undefined) return { verdict: 'allow', by: 'rule', rule: joined(allowed) }
  return input.interactive ? { verdict: 'ask', reason: askReason(mode, call, false) } : { verdict: 'deny', by: 'mode', text: deniedCannotAsk(mode, call) }
}
