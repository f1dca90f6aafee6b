/**
 * The ten live settings fields (ARCHITECTURE §3.8), namespace `maintainer-doc-guard` in
 * `$DSH_HOME/settings.yaml`, in guard order: precedent gate, intent gate, objective anchor, drift
 * correction. The composition config is the base layer; the settings file overrides it field by
 * field and is hot-reloaded, and every gate reads the effective value at judgement time.
 */
import { z } from 'zod'
import { ranges } from './config-schema.ts'
import type { ResolvedConfig } from './resolve-config.ts'

/** Settings namespace of the ten fields. */
export const SETTINGS_NAMESPACE = 'maintainer-doc-guard'

const int = (range: { readonly min: number; readonly max: number }) => z.number().int().min(range.min).max(range.max)

/** Schema of the namespace (a flat object; every field required once merged with the base). */
export const LiveSettingsSchema = z.strictObject({
  gateEnabled: z.boolean().describe('Precedent gate: enable the pre-write contract gate'),
  gateDryRun: z.boolean().describe('Precedent gate: observe only'),
  gateMaxDeniesPerTarget: int(ranges.maxDeniesPerTarget).describe('Precedent gate: denials per target before it gives up'),
  intentEnabled: z.boolean().describe('Intent gate: enable the act-before-explaining gate'),
  intentDryRun: z.boolean().describe('Intent gate: observe only'),
  intentMaxBlocksPerTurn: int(ranges.maxBlocksPerTurn).describe('Intent gate: denials per turn (0 = observe)'),
  intentMinChars: int(ranges.minChars).describe('Intent gate: prose characters counted as an explanation'),
  anchorEnabled: z.boolean().describe('Objective anchor: quote the current objective'),
  nudgeGrace: int(ranges.grace).describe('Drift correction: reminders before any denial'),
  nudgeAfterSteps: int(ranges.afterSteps).describe('Drift correction: steps since the user spoke before the drift check (0 = off)'),
})

/** Values of the ten fields. */
export type LiveSettings = z.infer<typeof LiveSettingsSchema>

/** The field names in card order. */
export const LIVE_FIELDS = [
  'gateEnabled',
  'gateDryRun',
  'gateMaxDeniesPerTarget',
  'intentEnabled',
  'intentDryRun',
  'intentMaxBlocksPerTurn',
  'intentMinChars',
  'anchorEnabled',
  'nudgeGrace',
  'nudgeAfterSteps',
] as const satisfies readonly (keyof LiveSettings)[]

/** The ten fields as the composition config sets them (the settings base layer). */
export function liveBase(config: ResolvedConfig): LiveSettings {
  return {
    gateEnabled: config.gate.enabled,
    gateDryRun: config.gate.dryRun,
    gateMaxDeniesPerTarget: config.gate.maxDeniesPerTarget,
    intentEnabled: config.intent.enabled,
    intentDryRun: config.intent.dryRun,
    intentMaxBlocksPerTurn: config.intent.maxBlocksPerTurn,
    intentMinChars: config.intent.minChars,
    anchorEnabled: config.anchor.enabled,
    nudgeGrace: config.nudge.grace,
    nudgeAfterSteps: config.nudge.afterSteps,
  }
}

/** The config with the ten live fields applied. */
export function withLiveSettings(config: ResolvedConfig, live: LiveSettings): ResolvedConfig {
  return {
    ...config,
    gate: { ...config.gate, enabled: live.gateEnabled, dryRun: live.gateDryRun, maxDeniesPerTarget: live.gateMaxDeniesPerTarget },
    intent: { ...config.intent, enabled: live.intentEnabled, dryRun: live.intentDryRun, maxBlocksPerTurn: live.intentMaxBlocksPerTurn, minChars: live.intentMinChars },
    anchor: { ...config.anchor, enabled: live.anchorEnabled },
    nudge: { ...config.nudge, grace: live.nudgeGrace, afterSteps: live.nudgeAfterSteps },
  }
}
