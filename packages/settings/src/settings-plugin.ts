/**
 * The settings service on the plugin host: `await ctx.plugin(SettingsPlugin, { file, logger })`
 * provides `ctx.settings`. Disposing the plugin's fiber closes the file watcher.
 *
 * A namespace registered through `ctx.settings` is tied to the caller's fiber: when the calling
 * plugin unloads (or is reloaded), its scope is disposed with it, so the namespace can be
 * registered again by the next incarnation.
 */
import { isAbsolute } from 'node:path'
import { Service, type Context } from '@deepseek-ai/cordis'
import { z, type ZodType } from 'zod'
import { SettingsStore, type SettingsStoreOptions } from './settings-store.ts'
import type { RegisterOptions, SettingsLogger, SettingsScope, SettingsService } from './types.ts'

/** Config of {@link SettingsPlugin}: the store's options. */
export type SettingsPluginConfig = SettingsStoreOptions

const PluginConfig = z.object({
  file: z.string().refine(isAbsolute, 'must be an absolute path'),
  logger: z.custom<SettingsLogger>((value) => typeof value === 'function', 'must be a function'),
  debounceMs: z.number().int().nonnegative().optional(),
  pollIntervalMs: z.number().int().positive().optional(),
})

/** Cordis service plugin providing `ctx.settings`. */
export class SettingsPlugin extends Service implements SettingsService {
  /** Validates the config before the plugin starts (cordis rejects `ctx.plugin` with a `ValidationError`). */
  static readonly Config = PluginConfig

  /** The underlying store (plain property: cordis proxies services, which hides `#private` fields). */
  private readonly store: SettingsStore

  constructor(ctx: Context, config: SettingsPluginConfig) {
    super(ctx, 'settings')
    this.store = new SettingsStore(config)
    ctx.effect(() => () => this.store.close(), 'settings watcher')
  }

  /** See `SettingsService.register`; the scope is disposed when the calling fiber unloads. */
  register<S extends ZodType>(namespace: string, schema: S, options?: RegisterOptions<z.infer<S>>): SettingsScope<z.infer<S>> {
    const scope = this.store.register(namespace, schema, options)
    let release: () => unknown
    try {
      // `this.ctx` is the caller's context here: cordis hands each caller a view of the service.
      release = this.ctx.effect(() => () => scope.dispose(), `settings.register(${JSON.stringify(namespace)})`)
    } catch (error) {
      // Not swallowed: the caller's fiber is inactive, so undo the registration and rethrow.
      scope.dispose()
      throw error
    }
    return {
      get: () => scope.get(),
      watch: (listener) => scope.watch(listener),
      update: (patch) => scope.update(patch),
      dispose: () => {
        void release()
      },
    }
  }
}
