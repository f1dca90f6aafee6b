/**
 * Session rules: what "allow always" answers approved, per session. A session's rules are read back
 * from its `tool/permission` events (`remember`) the first time one of its calls is decided, so a
 * resumed session keeps them; later answers add to them.
 */
import type { ApprovalScope, PermissionRule, SessionView } from '@dsh/contracts'
import { dataOf } from '@dsh/runtime'
import { parseRule } from './rule-parse.ts'

/** The rule text an "allow always" answer for `tool` adds. */
export function ruleForScope(tool: string, scope: ApprovalScope): string {
  switch (scope.kind) {
    case 'tool':
      return tool
    case 'command-prefix':
      return `${tool}(${scope.prefix.trim()}:*)`
    default: {
      const unreachable: never = scope
      throw new Error(`unknown approval scope ${JSON.stringify(unreachable)}`)
    }
  }
}

function remembered(view: SessionView): PermissionRule[] {
  const rules: PermissionRule[] = []
  for (const event of view.events) {
    if (event.type !== 'tool/permission') continue
    const data = dataOf(event, 'tool/permission')
    if (typeof data?.remember !== 'string') continue
    try {
      rules.push(parseRule(data.remember, `session ${view.header.id}`))
    } catch {
      // A hand-edited rule that no longer parses is dropped: it only ever widened permissions.
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

  /** Adds a rule to the session (after `of` read its log). */
  add(view: SessionView, rule: PermissionRule): void {
    const rules = this.#rules(view)
    if (!rules.some((known) => known.text === rule.text)) rules.push(rule)
  }
}
