/**
 * The permission service on a host: a `tools/pre-execute` guard that turns the policy into
 * verdicts (it calls `next()` first and only tightens), the wrapper of the front end's asker that
 * records answers and turns "allow always" into session rules, and a `tool/permission` event for
 * every decision, appended to the calling agent's session before the call runs.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { AgentHandle, PermissionDecision, PermissionMode, PermissionRule, PreExecuteVerdict, ToolExecution, ToolPermissionData } from '@dsh/contracts'
import type { AskPermission } from '@dsh/runtime'
import { callSubject } from './call-subject.ts'
import { toolClass } from './mode-policy.ts'
import { decide } from './permission-policy.ts'
import { pathFacts } from './path-facts.ts'
import { outsideEveryRoot } from './root-check.ts'
import { parseRule } from './rule-parse.ts'
import type { PermissionControls } from './permission-controls.ts'
import { SessionModes } from './session-modes.ts'
import { grantsInForce } from './skill-grants.ts'
import { forgetEventType, rulesForScope, SessionRules } from './session-rules.ts'
import { SessionTaint } from './session-taint.ts'

/** The allow and deny rules in force (read at every decision, so live settings apply). */
export interface RuleSet {
  readonly allow: readonly PermissionRule[]
  readonly deny: readonly PermissionRule[]
}

/** Options of {@link installPermissionGuard}. */
export interface PermissionGuardOptions {
  /** The mode at start (a session may switch among the modes of the same sandbox, see session-modes.ts). */
  readonly mode: PermissionMode
  /** The rules in force, read at every decision. */
  readonly rules: () => RuleSet
  /** False when shell commands cannot be sandboxed (asked only when a shell call is decided; see sandbox-probe.ts). */
  readonly sandboxAvailable: () => boolean
  /** The front end's asker; absent for front ends that cannot ask (`dsh run`): then `ask` is a denial naming the way out. */
  readonly ask?: AskPermission | undefined
  /** Working directory for calls made outside an agent. */
  readonly cwd: string
  /** dsh's own state (`$DSH_HOME`): writes there always ask (policy `protectedDirs`). */
  readonly protectedDirs?: readonly string[]
  /** The writable roots of an agent's session (what its `write` and `edit` may change); absent: not checked. */
  readonly writableRoots?: (agent: AgentHandle) => readonly string[]
  /**
   * Where credentials and session transcripts live (secret-locations.ts): `read`, `grep` and
   * `glob` refuse them unless an allow rule names them. Absent: none.
   */
  readonly secretPaths?: readonly string[]
  /** Called with the absolute path of a `write`/`edit` call once it is allowed (by a rule, the mode or an answer), before it runs. Must not throw. */
  readonly onAllowedWrite?: (path: string) => void
}

/** Tells `onAllowedWrite` of an allowed write or edit. */
function noteWrite(execution: ToolExecution, cwd: string, onAllowedWrite: ((path: string) => void) | undefined): void {
  if (onAllowedWrite === undefined || toolClass(execution.name) !== 'write') return
  const subject = callSubject(execution.name, execution.arguments, execution.agent?.cwd ?? cwd)
  if (subject.kind === 'path') onAllowedWrite(subject.path)
}

/** The roots a `write`/`edit` call lands outside of, or undefined (inside one, or not a write). */
function outsideRootsOf(execution: ToolExecution, roots: ((agent: AgentHandle) => readonly string[]) | undefined): readonly string[] | undefined {
  const agent = execution.agent
  if (roots === undefined || agent === undefined || toolClass(execution.name) !== 'write') return undefined
  const subject = callSubject(execution.name, execution.arguments, agent.cwd)
  if (subject.kind !== 'path') return undefined
  const list = roots(agent)
  return outsideEveryRoot(subject.path, list) ? list : undefined
}

/** What the composition gets back. */
export interface PermissionGuard {
  /** Give this to the host as its `askPermission` (absent when the front end cannot ask). */
  readonly askPermission: AskPermission | undefined
  /** The session mode and session rules, for front ends that let the person change them. */
  readonly controls: PermissionControls
  /** Removes the guard. */
  readonly dispose: () => void
}

function record(execution: ToolExecution, mode: PermissionMode, data: Omit<ToolPermissionData, 'callId' | 'tool' | 'mode'>): void {
  execution.agent?.recordPermission?.({ callId: execution.callId, tool: execution.name, mode, ...data })
}

function asDecision(answer: boolean | PermissionDecision): PermissionDecision {
  if (answer === true) return { kind: 'allow-once' }
  if (answer === false) return { kind: 'reject' }
  return answer
}

/** True when the called tool declares it changes nothing (an MCP `readOnlyHint`), on the host's registry or the agent's own. */
function readOnlyTool(ctx: Context, execution: ToolExecution): boolean {
  return execution.readOnly === true || ctx.get('tools')?.get(execution.name)?.readOnly === true
}

/** Installs the guard on `ctx`. */
export function installPermissionGuard(ctx: Context, options: PermissionGuardOptions): PermissionGuard {
  const modes = new SessionModes(options.mode)
  const sessions = new SessionRules()
  const taint = new SessionTaint()
  const dispose = ctx.on('tools/pre-execute', async (execution: ToolExecution, next: () => Promise<PreExecuteVerdict>): Promise<PreExecuteVerdict> => {
    const base = await next()
    if (base.kind === 'deny') return base
    const agent = execution.agent
    const mode = modes.of(agent?.session)
    const rules = options.rules()
    const cwd = agent?.cwd ?? options.cwd
    const facts = pathFacts({
      tool: execution.name,
      args: execution.arguments,
      cwd,
      roots: agent === undefined || options.writableRoots === undefined ? [cwd] : options.writableRoots(agent),
      protectedDirs: options.protectedDirs ?? [],
      secretPaths: options.secretPaths ?? [],
    })
    const session = agent?.session.header.id
    if (agent !== undefined) {
      const roots = options.writableRoots === undefined ? [agent.cwd] : options.writableRoots(agent)
      taint.load(agent.session, (tool, args) => pathFacts({ tool, args, cwd: agent.cwd, roots, protectedDirs: [], secretPaths: [] }).protectedFile)
    }
    const decision = decide({
      mode,
      allow: rules.allow,
      deny: rules.deny,
      session: agent === undefined ? [] : sessions.of(agent.session),
      granted: agent === undefined ? [] : grantsInForce(agent.session),
      // Probed only when it matters: a shell call outside danger-full-access.
      sandboxAvailable: toolClass(execution.name) !== 'shell' || mode === 'danger-full-access' || options.sandboxAvailable(),
      interactive: options.ask !== undefined,
      protectedDirs: options.protectedDirs ?? [],
      outsideRoots: outsideRootsOf(execution, options.writableRoots),
      facts,
      tainted: session === undefined || toolClass(execution.name) !== 'shell' ? undefined : taint.first(session),
      call: { tool: execution.name, args: execution.arguments, cwd, ...(readOnlyTool(ctx, execution) ? { readOnly: true } : {}) },
    })
    switch (decision.verdict) {
      case 'deny':
        record(execution, mode, { decision: 'deny', by: decision.by, ...(decision.rule === undefined ? {} : { rule: decision.rule }) })
        return { kind: 'deny', reason: decision.text.reason, recovery: decision.text.recovery }
      case 'ask':
        // The answer is recorded by the asker below.
        return { kind: 'ask', reason: decision.reason }
      case 'allow':
        // Another guard asked: the answer decides and is recorded then.
        if (base.kind === 'ask') return base
        // A protected file changed without a question: allow rules stop covering shell calls.
        if (facts.protectedFile !== undefined && session !== undefined && mode !== 'danger-full-access') taint.add(session, facts.protectedFile)
        record(execution, mode, { decision: 'allow', by: decision.by, ...(decision.rule === undefined ? {} : { rule: decision.rule }) })
        noteWrite(execution, options.cwd, options.onAllowedWrite)
        return base
      default: {
        const unreachable: never = decision
        throw new Error(`unknown policy decision ${JSON.stringify(unreachable)}`)
      }
    }
  })
  const ask = options.ask
  const askPermission: AskPermission | undefined =
    ask === undefined
      ? undefined
      : async (execution, reason) => {
          const answer = asDecision(await ask(execution, reason))
          const agent = execution.agent
          const mode = modes.of(agent?.session)
          if (answer.kind === 'reject') {
            const note = answer.note?.trim()
            record(execution, mode, { decision: 'deny', by: 'answer', ...(note === undefined || note === '' ? {} : { note }) })
            return answer
          }
          if (answer.kind === 'allow-always' && agent !== undefined) {
            const [first, ...more] = rulesForScope(execution.name, answer.scope).map((text) => parseRule(text, 'allow always'))
            for (const rule of [first, ...more]) if (rule !== undefined) sessions.add(agent.session, rule)
            record(execution, mode, { decision: 'allow', by: 'answer', ...(first === undefined ? {} : { remember: first.text }), ...(more.length === 0 ? {} : { rememberAlso: more.map((rule) => rule.text) }) })
            noteWrite(execution, options.cwd, options.onAllowedWrite)
            return answer
          }
          record(execution, mode, { decision: 'allow', by: 'answer' })
          noteWrite(execution, options.cwd, options.onAllowedWrite)
          return answer
        }
  const controls: PermissionControls = {
    mode: (agent) => modes.of(agent.session),
    setMode: (agent, mode) => modes.set(agent.session, mode),
    sessionMode: (sessionId) => modes.ofId(sessionId),
    setSessionMode: (sessionId, mode) => modes.setId(sessionId, mode),
    sessionRules: (agent) => sessions.of(agent.session).map((rule) => rule.text),
    forget: (agent, rule) => {
      if (!sessions.remove(agent.session, rule)) return false
      agent.recordEvent?.(forgetEventType, { rule })
      return true
    },
  }
  return { askPermission, controls, dispose: () => void dispose() }
}
