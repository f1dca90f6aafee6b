/**
 * The CLI's own live settings namespace, `agent`, in `$DSH_HOME/settings.yaml`. The config file
 * gives the base values; the settings file overrides them field by field and is hot-reloaded, so
 * a running `dsh chat` picks up an edit at its next step.
 */
import { z } from 'zod'
import type { Host } from '@dsh/runtime'
import type { SettingsScope } from '@dsh/settings'

/** Fields of the `agent` namespace. */
export const agentSettingsSchema = z.strictObject({
  autoCompactShare: z.number().gt(0).max(1).describe('Share of the context window that triggers automatic compaction'),
})

/** Values of the `agent` namespace. */
export type AgentSettings = z.infer<typeof agentSettingsSchema>

/** Registers the namespace on the host's settings service. */
export function registerAgentSettings(host: Host, base: AgentSettings): SettingsScope<AgentSettings> {
  return host.ctx.settings.register('agent', agentSettingsSchema, { base })
}
