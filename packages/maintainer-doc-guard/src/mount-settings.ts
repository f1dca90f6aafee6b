/**
 * Attaches the ten live fields and the switches to the settings service when one is mounted
 * (`ctx.inject(['settings'], …)`: a composition without it keeps the composition config). The
 * scopes belong to the injected fiber and are released with the plugin. If the namespaces cannot
 * be registered (another guard owns them), the composition config stays in force and one line says
 * so.
 */
import type { Context } from '@deepseek-ai/cordis'
import { errorMessage } from '@dsh/runtime'
import type { SettingsScope } from '@dsh/settings'
import { LiveSettingsSchema, liveBase, SETTINGS_NAMESPACE, type LiveSettings } from './live-settings.ts'
import type { ResolvedConfig } from './resolve-config.ts'
import { SwitchesSchema, switchBase, SWITCHES_NAMESPACE, type Switches, type SwitchValues } from './switches.ts'

/** Options of {@link mountLiveSettings}. */
export interface LiveSettingsMount {
  readonly base: ResolvedConfig
  readonly switches: Switches
  readonly warn: (line: string) => void
  /** Receives the live scope while it is attached, `undefined` once released. */
  readonly onLive: (scope: SettingsScope<LiveSettings> | undefined) => void
}

/** Registers the two namespaces whenever a settings service is available. */
export function mountLiveSettings(ctx: Context, mount: LiveSettingsMount): void {
  ctx.inject(['settings'], (scoped) => {
    let liveScope: SettingsScope<LiveSettings>
    let switchScope: SettingsScope<SwitchValues>
    try {
      liveScope = scoped.settings.register(SETTINGS_NAMESPACE, LiveSettingsSchema, { base: liveBase(mount.base) })
      switchScope = scoped.settings.register(SWITCHES_NAMESPACE, SwitchesSchema, { base: switchBase(mount.base) })
    } catch (error) {
      // Another guard owns the namespaces (or the file is unusable): keep the composition config.
      mount.warn(`maintainer-doc-guard: live settings are unavailable, the composition config stays in force: ${errorMessage(error)}`)
      return
    }
    mount.onLive(liveScope)
    const detach = mount.switches.attach(switchScope)
    scoped.effect(() => () => {
      detach()
      mount.onLive(undefined)
    }, 'maintainer-doc-guard.settings')
  })
}
