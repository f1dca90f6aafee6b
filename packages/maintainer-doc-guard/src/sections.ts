/**
 * The two system-prompt sections: the standing reminder (`maintainer-doc-guard`, order `order`)
 * and the objective anchor (`maintainer-doc-guard/anchor`, order `anchor.order`, fixed at mount).
 * Both render per agent at every assembly from in-memory state and never throw: a rendering bug
 * drops the section for that request and is counted, it never breaks prompt assembly.
 */
import type { PromptAssembly, PromptSection } from '@dsh/contracts'
import { errorMessage } from '@dsh/runtime'
import { renderAnchor } from './anchor-section.ts'
import { isChildSession } from './anchor-source.ts'
import { anchorReach, documentsReach, type GuardCore } from './guard-core.ts'
import { isHumanOnly } from './document-roles.ts'
import { renderReminder } from './reminder-section.ts'
import type { ResolvedConfig } from './resolve-config.ts'

function safely(core: GuardCore, name: string, render: (assembly: PromptAssembly) => string): (assembly: PromptAssembly) => string {
  return (assembly) => {
    try {
      return render(assembly)
    } catch (error) {
      // A section bug must not break prompt assembly: drop the section for this request.
      core.counters.add('internalErrors')
      core.counters.note('lastError', `${name}: ${errorMessage(error)}`)
      core.warn(`maintainer-doc-guard: the ${name} section failed: ${errorMessage(error)}`)
      return ''
    }
  }
}

/** The standing reminder section. */
export function reminderSection(core: GuardCore, base: ResolvedConfig): PromptSection {
  return {
    name: 'maintainer-doc-guard',
    order: base.order,
    text: safely(core, 'reminder', ({ agent }) => {
      if (agent === undefined) return ''
      const state = core.states.of(agent.session)
      const config = core.config()
      if (!documentsReach(state.header, config) || state.snapshot === undefined) return ''
      core.counters.add('sectionRenderSeen')
      core.counters.note('lastSectionDocs', state.snapshot.probes.filter((probe) => probe.found !== undefined && !isHumanOnly(probe.name)).map((probe) => probe.name))
      return renderReminder({ config, cwd: state.snapshot.place.cwd, probes: state.snapshot.probes })
    }),
  }
}

/** The objective anchor section (empty in `message` delivery and before any instruction exists). */
export function anchorSection(core: GuardCore, base: ResolvedConfig): PromptSection {
  return {
    name: 'maintainer-doc-guard/anchor',
    order: base.anchor.order,
    text: safely(core, 'anchor', ({ agent }) => {
      if (agent === undefined) return ''
      const config = core.config()
      const state = core.states.of(agent.session)
      if (!config.anchor.enabled || config.anchor.delivery !== 'section' || !anchorReach(state.header, config)) return ''
      const quote = state.anchor.current(agent.session.events)
      if (quote === undefined) return ''
      return renderAnchor({ config: config.anchor, quote, child: isChildSession(state.header), strict: core.switches.get().strictOnTopic })
    }),
  }
}
