/**
 * The rules trusted skills' `allowed-tools` grant for the running turn, read from the session log
 * (`skills/grant` events, see SkillGrantData): the grants recorded since the running turn started,
 * and the `next-turn` grants recorded between the previous turn's end and its start. No turn
 * running: no grants. A grant whose rule no longer parses grants nothing.
 */
import type { PermissionRule, SessionEvent, SessionView, SkillGrantData } from '@dsh/contracts'
import { parseRule } from './rule-parse.ts'

/** The plugin event a skill's grant is recorded as. */
export const grantEventType = 'skills/grant'

function field(data: object, key: string): unknown {
  return Object.getOwnPropertyDescriptor(data, key)?.value
}

function grantOf(event: SessionEvent): SkillGrantData | undefined {
  if (event.type !== grantEventType || typeof event.data !== 'object' || event.data === null) return undefined
  const skill = field(event.data, 'skill')
  const file = field(event.data, 'file')
  const rules = field(event.data, 'rules')
  const scope = field(event.data, 'scope')
  if (typeof skill !== 'string' || !Array.isArray(rules) || (scope !== 'turn' && scope !== 'next-turn')) return undefined
  return { skill, file: typeof file === 'string' ? file : '', rules: rules.filter((rule): rule is string => typeof rule === 'string'), scope }
}

function addRules(into: PermissionRule[], grant: SkillGrantData): void {
  for (const text of grant.rules) {
    if (typeof text !== 'string') continue
    try {
      const rule = parseRule(text, `skill ${grant.skill} allowed-tools`)
      if (!into.some((known) => known.text === rule.text)) into.push(rule)
    } catch {
      // A rule that does not parse (a hand-edited log) grants nothing; grants only ever widen.
    }
  }
}

/** The rules in force for the running turn of `view`. */
export function grantsInForce(view: SessionView): PermissionRule[] {
  const events = view.events
  const rules: PermissionRule[] = []
  let at = events.length - 1
  for (; at >= 0; at--) {
    const event = events[at]
    if (event === undefined || event.type === 'turn/end') return []
    if (event.type === 'turn/start') break
    const grant = grantOf(event)
    if (grant !== undefined) addRules(rules, grant)
  }
  // No turn has started: nothing is running, nothing is in force.
  if (at < 0) return []
  for (at--; at >= 0; at--) {
    const event = events[at]
    if (event === undefined || event.type === 'turn/start' || event.type === 'turn/end') break
    const grant = grantOf(event)
    if (grant?.scope === 'next-turn') addRules(rules, grant)
  }
  return rules
}
