/**
 * The reminder and the objective anchor as text, and as the two optional system-prompt sections
 * (`maintainer-doc-guard`, order `order`, with `placement: system`; `maintainer-doc-guard/anchor`,
 * order `anchor.order`, with `anchor.delivery: section`). By default both travel as durable
 * messages instead (`history-delivery.ts`), so the system prompt stays the same all session.
 * Rendering never throws: a bug drops the text for that request and is counted.
 */
import type { AgentHandle, PromptAssembly, PromptSection, UserMessage } from '@dsh/contracts'
import { errorMessage } from '@dsh/runtime'
import { renderAnchor } from './anchor-section.ts'
import { isChildSession } from './anchor-source.ts'
import { anchorReach, documentsReach, type GuardCore } from './guard-core.ts'
import { isHumanOnly } from './document-roles.ts'
import { renderReminder } from './reminder-section.ts'
import type { ResolvedConfig } from './resolve-config.ts'

/** Runs a renderer; a failure is counted, reported and becomes ''. */
export function safely(core: GuardCore, name: string, render: () => string): string {
  try {
    return render()
  } catch (error) {
    // A rendering bug must not break prompt assembly or the step: drop the text for this request.
    core.counters.add('internalErrors')
    core.counters.note('lastError', `${name}: ${errorMessage(error)}`)
    core.warn(`maintainer-doc-guard: the ${name} section failed: ${errorMessage(error)}`)
    return ''
  }
}

/** The reminder text for `agent` ('' when there is none to give). */
export function reminderText(core: GuardCore, agent: AgentHandle): string {
  const state = core.states.of(agent.session)
  const config = core.config()
  if (!documentsReach(state.header, config) || state.snapshot === undefined) return ''
  core.counters.add('sectionRenderSeen')
  core.counters.note('lastSectionDocs', state.snapshot.probes.filter((probe) => probe.found !== undefined && !isHumanOnly(probe.name)).map((probe) => probe.name))
  return renderReminder({ config, cwd: state.snapshot.place.cwd, probes: state.snapshot.probes })
}

/** The anchor text for `agent` ('' when off or before any instruction exists); `pending`: the step's batch, not yet logged. */
export function anchorText(core: GuardCore, agent: AgentHandle, pending: readonly UserMessage[] = []): string {
  const config = core.config()
  const state = core.states.of(agent.session)
  if (!config.anchor.enabled || !anchorReach(state.header, config)) return ''
  const quote = state.anchor.currentWith(agent.session.events, pending)
  if (quote === undefined) return ''
  return renderAnchor({ config: config.anchor, quote, child: isChildSession(state.header), strict: core.switches.get().strictOnTopic })
}

/** The standing reminder section (text only with `placement: system`). */
export function reminderSection(core: GuardCore, base: ResolvedConfig): PromptSection {
  return {
    name: 'maintainer-doc-guard',
    order: base.order,
    text: ({ agent }: PromptAssembly) => (agent === undefined || core.config().placement !== 'system' ? '' : safely(core, 'reminder', () => reminderText(core, agent))),
  }
}

/** The objective anchor section (text only with `anchor.delivery: section`). */
export function anchorSection(core: GuardCore, base: ResolvedConfig): PromptSection {
  return {
    name: 'maintainer-doc-guard/anchor',
    order: base.anchor.order,
    text: ({ agent }: PromptAssembly) => (agent === undefined || core.config().anchor.delivery !== 'section' ? '' : safely(core, 'anchor', () => anchorText(core, agent))),
  }
}
