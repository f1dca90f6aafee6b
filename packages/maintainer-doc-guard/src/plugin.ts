/**
 * The maintainer-doc-guard plugin: `createMaintainerDocGuard(config, hooks)` resolves the config
 * and returns a cordis plugin object that also exposes its counters, switches, live config and
 * session states (the operator service is built over it). Mounted with `enabled: false` it
 * registers nothing at all, so every request is byte-identical to a composition without it.
 *
 * Hooks: `agent/pre-step` (refresh the session's document snapshot), `tools/pre-execute` (the
 * gates and notices), `tools/result` (reads, arming, induction), `session/event` (sensors),
 * `agent/turn-stopping` (the strict judge). The settings service is optional (`ctx.inject`): with
 * it, the ten live fields and the switches are hot-reloaded from `$DSH_HOME/settings.yaml`.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { FileSystemPort, PreExecuteVerdict } from '@dsh/contracts'
import { errorMessage } from '@dsh/runtime'
import type { SettingsScope } from '@dsh/settings'
import type { ConfigInput } from './config-schema.ts'
import { Counters } from './counters.ts'
import { landingCheck } from './content-notice.ts'
import { takeSnapshot } from './document-snapshot.ts'
import { documentsReach, type GuardCore } from './guard-core.ts'
import { withLiveSettings, type LiveSettings } from './live-settings.ts'
import { mountLiveSettings } from './mount-settings.ts'
import { PLUGIN_NAME } from './notice-delivery.ts'
import { warnProblems } from './problem-warnings.ts'
import { guardCall } from './pre-execute.ts'
import { resolveConfig, type ResolvedConfig } from './resolve-config.ts'
import { durableDeliveries } from './history-delivery.ts'
import { anchorSection, reminderSection } from './sections.ts'
import { observeEvent } from './session-observer.ts'
import { SessionStates } from './session-state.ts'
import type { JudgeModel } from './strict-judge.ts'
import { Switches, switchBase } from './switches.ts'
import { observeOutcome } from './tool-outcomes.ts'
import { judgeTurn } from './turn-judge.ts'

/** Options only programmatic compositions pass. */
export interface GuardHooks {
  /** Diagnostics sink (one line per call); defaults to the plugin's cordis logger. */
  readonly warn?: (line: string) => void
  /** The strict-mode judge (see `judgeModelOf`); without it strict mode only changes the anchor. */
  readonly judge?: JudgeModel
  /** Clock for ledger dates (tests pin it). */
  readonly clock?: () => Date
}

/** A guard instance: a cordis plugin plus what the operator service reads. */
export interface MaintainerDocGuard {
  readonly name: string
  /** The resolved composition config (before live settings). */
  readonly base: ResolvedConfig
  readonly counters: Counters
  readonly switches: Switches
  readonly states: SessionStates
  /** The effective config (live settings applied). */
  current(): ResolvedConfig
  /** The live settings scope while a settings service is mounted. */
  liveSettings(): SettingsScope<LiveSettings> | undefined
  /** Cordis entry point. */
  apply(ctx: Context): void
}

/** Creates a guard; throws a zod error naming the field for invalid config. */
export function createMaintainerDocGuard(input: ConfigInput = {}, hooks: GuardHooks = {}): MaintainerDocGuard {
  const base = resolveConfig(input)
  const counters = new Counters()
  const switches = new Switches(switchBase(base))
  const states = new SessionStates()
  let live: SettingsScope<LiveSettings> | undefined
  const current = (): ResolvedConfig => (live === undefined ? base : withLiveSettings(base, live.get()))
  const clock = hooks.clock ?? (() => new Date())
  return {
    name: PLUGIN_NAME,
    base,
    counters,
    switches,
    states,
    current,
    liveSettings: () => live,
    apply(ctx: Context) {
      if (!base.enabled) return
      const logger = ctx.logger(PLUGIN_NAME)
      const warn = hooks.warn ?? ((line: string) => logger.warn(line))
      const core: GuardCore = { states, counters, switches, config: current, warn, today: () => clock().toISOString().slice(0, 10), judge: hooks.judge }
      mountLiveSettings(ctx, { base, switches, warn, onLive: (scope) => (live = scope) })
      const prompt = ctx.get('systemPrompt')
      if (prompt !== undefined) {
        ctx.effect(() => prompt.section(reminderSection(core, base)), 'maintainer-doc-guard.reminder')
        ctx.effect(() => prompt.section(anchorSection(core, base)), 'maintainer-doc-guard.anchor')
      }
      const fs = (): FileSystemPort | undefined => ctx.get('fs')
      const fail = (what: string, error: unknown): void => {
        counters.add('internalErrors')
        counters.note('lastError', `${what}: ${errorMessage(error)}`)
        warn(`maintainer-doc-guard: ${what} failed: ${errorMessage(error)}`)
      }

      ctx.on('agent/pre-step', async (payload, next) => {
        const decision = await next()
        const port = fs()
        const state = states.of(payload.agent.session)
        const config = current()
        if (decision.kind !== 'enter') return decision
        if (port !== undefined && documentsReach(state.header, config)) {
          try {
            state.snapshot = await takeSnapshot(port, { config, header: state.header, lineage: states.lineage(state.header.id), previous: state.snapshot, memo: state.memo, signal: payload.signal })
            warnProblems(state.snapshot, state.warnedProblems, warn)
          } catch (error) {
            // The last snapshot stays in use; cancellation still reaches the loop.
            if (payload.signal.aborted) throw error
            fail('reading the maintainer documents', error)
          }
        }
        // An empty first batch ends the turn without a model call: nothing is added to it.
        if (decision.messages.length === 0 && payload.step === 1) return decision
        const durable = durableDeliveries(core, payload.agent, decision.messages)
        return durable.length === 0 ? decision : { kind: 'enter', messages: [...decision.messages, ...durable] }
      })

      ctx.on('tools/pre-execute', async (execution, next) => {
        const downstream = await next()
        counters.add('seen')
        const port = fs()
        if (downstream.kind === 'deny' || execution.agent === undefined || port === undefined) return downstream
        try {
          return await guardCall(core, port, execution, execution.agent, downstream)
        } catch (error) {
          // Never fatal: an internal failure means "no decision".
          if (!execution.signal.aborted) fail(`judging ${execution.name}`, error)
          return downstream satisfies PreExecuteVerdict
        }
      })

      ctx.on('tools/result', async (execution, outcome) => {
        const agent = execution.agent
        const port = fs()
        if (agent === undefined || port === undefined) return
        const state = states.of(agent.session)
        const config = current()
        try {
          await observeOutcome({ fs: port, state, config, switches: switches.get(), counters, snapshot: state.snapshot, documentsReach: documentsReach(state.header, config), today: core.today, execution, outcome, cwd: agent.cwd })
        } catch (error) {
          // Bookkeeping only: a failure costs a recorded read or a ledger line, never the call.
          fail(`recording the ${execution.name} result`, error)
        }
        if (switches.get().content) await landingCheck({ agent, state, counters, warn, execution, outcome })
      })

      ctx.on('session/event', (session, event) => observeEvent(states, session, event))
      ctx.on('agent/turn-stopping', (payload) => judgeTurn(core, payload))
    },
  }
}
