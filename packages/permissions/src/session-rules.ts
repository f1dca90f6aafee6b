/**
 * Session rules: what "allow always" answers approved, per session. A session's rules are read back
 * from its log the first time one of its calls is decided — `tool/permission` events add them
 * (`remember`), `permissions/forget` events (a person removed one in the chat) take them away, in
 * log order — so a resumed session keeps exactly the rules still in force; later answers add to them.
 */
import type { ApprovalScope, PermissionRule, SessionView } from '@dsh/contracts'
import { dataOf, suggestedPrefix } from '@dsh/runtime'
import { parseRule } from './rule-parse.ts'

/** The plugin event a removal of a session rule is recorded as (`data: { rule }`). */
export const forgetEventType = 'permissions/forget'

/** The rule text of a `permissions/forget` event, or undefined for anything else. */
function forgotten(type: string, data: unknown): string | undefined {
  if (type !== forgetEventType || typeof data !== 'object' || data === null) return undefined
  const rule: unknown = Object.getOwnPropertyDescriptor(data, 'rule')?.value
  return typeof rule === 'string' ? rule : undefined
}

/**
 * True for a prefix dsh offers (runtime's `suggestedPrefix` of it is itself). Others — a reserved
 * word (`if`), a program that runs other commands (`timeout`, `sudo`), what an older dsh offered or
 * a front end sent — add no rule: "allow `timeout …`" would allow `timeout 5 rm -rf src`.
 */
const offered = (prefix: string): boolean => suggestedPrefix(prefix.trim()) === prefix.trim()

/** The rule texts an "allow always" answer for `tool` adds (one, or one per part of a compound command). */
export function rulesForScope(tool: string, scope: ApprovalScope): string[] {
  switch (scope.kind) {
    case 'tool':
      return [tool]
    case 'command-prefix':
      return offered(scope.prefix) ? [`${tool}(${scope.prefix.trim()}:*)`] : []
    case 'command-prefixes':
      return scope.prefixes.filter(offered).map((prefix) => `${tool}(${prefix.trim()}:*)`)
    case 'domain':
      return [`${tool}(domain:${scope.host.trim()})`]
    default: {
      const unreachable: never = scope
      throw new Error(`unknown approval scope ${JSON.stringify(unreachable)}`)
    }
  }
}

function remembered(view: SessionView): PermissionRule[] {
  const rules: PermissionRule[] = []
  for (const event of view.events) {
    const removed = forgotten(event.type, event.data)
    if (removed !== undefined) {
      const at = rules.findIndex((rule) => rule.text === removed)
      if (at >= 0) rules.splice(at, 1)
      continue
    }
    if (event.type !== 'tool/permission') continue
    const data = dataOf(event, 'tool/permission')
    if (typeof data?.remember !== 'string') continue
    for (const text of [data.remember, ...(data.rememberAlso ?? [])]) {
      try {
        const rule = parseRule(text, `session ${view.header.id}`)
        // A prefix an older dsh offered that this one would not (`bash(timeout:*)`) is not restored.
        const prefix = rule.tool === 'bash' && rule.pattern?.endsWith(':*') === true ? rule.pattern.slice(0, -2) : undefined
        if (prefix !== undefined && !offered(prefix)) continue
        if (!rules.some((known) => known.text === rule.text)) rules.push(rule)
      } catch {
        // A hand-edited rule that no longer parses is dropped: it only ever widened permissions.
      }
    }
  }
  return rules
}

/** The session rules of every session the host serves (sessions are keyed by id). */
export class SessionRules {
  readonly #bySession = new Map<string, PermissionRule[]>()

  /** The rules of the session, read from its log on first use. */
  of(view: SessionView): readonly PermissionRule[] {
    return this.#rules(view)
  }

  #rules(view: SessionView): PermissionRule[] {
    const id = view.header.id
    let rules = this.#bySession.get(id)
    if (rules === undefined) {
      rules = remembered(view)
      this.#bySession.set(id, rules)
    }
    return rules
  }

  /** Removes a rule from the session; false when it has no rule of that text. The caller records the removal. */
  remove(view: SessionView, text: string): boolean {
    const rules = this.#rules(view)
    const at = rules.findIndex((rule) => rule.text === text)
    if (at < 0) return false
    rules.splice(at, 1)
    return true
  }

  /** Adds a rule to the session (after `of` read its log). */
  add(view: SessionView, rule: PermissionRule): void {
    const rules = this.#rules(view)
    if (!rules.some((known) => known.text === rule.text)) rules.push(rule)
  }
}
