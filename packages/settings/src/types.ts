/**
 * Types-only contract of the settings service, and its declaration on the plugin host's `Context`.
 *
 * A plugin registers a kebab-case namespace with a zod schema and gets a scope that reads, watches
 * and updates that namespace's section of `$DSH_HOME/settings.yaml`. The effective value is the
 * schema-parsed merge `{ ...base, ...fileSection }`, field by field: the settings file overrides
 * the composition config.
 */
import type { ZodType, z } from 'zod'
// The empty import brings the module into scope; tsc needs it for the augmentation at the end.
// oxlint-disable-next-line import/no-empty-named-blocks, unicorn/require-module-specifiers
import type {} from '@deepseek-ai/cordis'

/** Options of {@link SettingsService.register}. */
export interface RegisterOptions<T> {
  /**
   * Base layer, usually the plugin's composition config. Fields present in the settings file
   * override these field by field; fields absent from the file keep these values.
   */
  readonly base?: Partial<T>
}

/** Live handle on one registered namespace. */
export interface SettingsScope<T> {
  /** The current effective value (frozen). Never throws; after a bad edit it is the last good value. */
  get(): T
  /**
   * Calls `listener` after every change of the effective value (deep compare: a rewrite that leaves
   * the value equal does not notify). Returns the unsubscribe function.
   */
  watch(listener: (next: T, previous: T) => void): () => void
  /**
   * Validates `{ ...base, ...fileSection, ...patch }`, writes the patched fields to the file
   * atomically (comments and other namespaces preserved), notifies watchers and resolves with the
   * new effective value. Rejects with a `SettingsError` (`SETTINGS_INVALID_VALUE`,
   * `SETTINGS_FILE_INVALID`, `SETTINGS_FILE_UNAVAILABLE`, `SETTINGS_WRITE_FAILED`, `SETTINGS_CLOSED`) and leaves the file
   * untouched when it cannot apply the patch.
   */
  update(patch: Partial<T>): Promise<T>
  /** Unregisters the namespace and drops its watchers. The file is not touched. Idempotent. */
  dispose(): void
}

/** The settings service, provided on the plugin host as `ctx.settings`. */
export interface SettingsService {
  /**
   * Registers `namespace` (kebab-case, at most once at a time) validated by `schema`. Throws a
   * `SettingsError` for a bad name (`SETTINGS_INVALID_NAMESPACE`), a name already registered
   * (`SETTINGS_NAMESPACE_TAKEN`), or a base that the schema rejects while the file offers no valid
   * section either (`SETTINGS_INVALID_BASE`).
   */
  register<S extends ZodType>(namespace: string, schema: S, options?: RegisterOptions<z.infer<S>>): SettingsScope<z.infer<S>>
}

/** Receives one human-readable line per problem (bad YAML, invalid field, unreadable file). */
export type SettingsLogger = (line: string) => void

/** Stable codes of `SettingsError`. */
export type SettingsErrorCode =
  | 'SETTINGS_INVALID_NAMESPACE'
  | 'SETTINGS_NAMESPACE_TAKEN'
  | 'SETTINGS_INVALID_BASE'
  | 'SETTINGS_INVALID_VALUE'
  | 'SETTINGS_FILE_INVALID'
  | 'SETTINGS_FILE_UNAVAILABLE'
  | 'SETTINGS_WRITE_FAILED'
  | 'SETTINGS_CLOSED'
  | 'SETTINGS_BUSY'

declare module '@deepseek-ai/cordis' {
  interface Context {
    /** Namespaced, hot-reloaded settings persisted to `$DSH_HOME/settings.yaml`. */
    settings: SettingsService
  }
}
