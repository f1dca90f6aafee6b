// Property: each of the ten live settings fields reaches exactly the config value it names.
// Whatever the composition config and whatever the settings file says, reading the ten fields
// back out of the effective config gives the settings values, and nothing else changes.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ranges } from '../src/config-schema.ts'
import { liveBase, withLiveSettings, type LiveSettings } from '../src/live-settings.ts'
import { resolveConfig } from '../src/resolve-config.ts'

const int = (range: { readonly min: number; readonly max: number }) => fc.integer(range)

const live: fc.Arbitrary<LiveSettings> = fc.record({
  gateEnabled: fc.boolean(),
  gateDryRun: fc.boolean(),
  gateMaxDeniesPerTarget: int(ranges.maxDeniesPerTarget),
  intentEnabled: fc.boolean(),
  intentDryRun: fc.boolean(),
  intentMaxBlocksPerTurn: int(ranges.maxBlocksPerTurn),
  intentMinChars: int(ranges.minChars),
  anchorEnabled: fc.boolean(),
  nudgeGrace: int(ranges.grace),
  nudgeAfterSteps: int(ranges.afterSteps),
})

describe('live settings over the composition config', () => {
  it('apply every field to the setting it names and leave the rest of the config alone', () => {
    fc.assert(
      fc.property(live, live, (fromConfig, fromFile) => {
        const base = resolveConfig({
          gate: { enabled: fromConfig.gateEnabled, dryRun: fromConfig.gateDryRun, maxDeniesPerTarget: fromConfig.gateMaxDeniesPerTarget },
          intent: { enabled: fromConfig.intentEnabled, dryRun: fromConfig.intentDryRun, maxBlocksPerTurn: fromConfig.intentMaxBlocksPerTurn, minChars: fromConfig.intentMinChars },
          anchor: { enabled: fromConfig.anchorEnabled },
          nudge: { grace: fromConfig.nudgeGrace, afterSteps: fromConfig.nudgeAfterSteps },
        })
        expect(liveBase(base)).toEqual(fromConfig)
        const effective = withLiveSettings(base, fromFile)
        expect(liveBase(effective)).toEqual(fromFile)
        expect(withLiveSettings(effective, fromConfig)).toEqual(base)
      }),
    )
  })
})
