/** Public surface of `@dsh/settings`. */
export type { RegisterOptions, SettingsErrorCode, SettingsLogger, SettingsScope, SettingsService } from './types.ts'
export { SettingsError, isSettingsError } from './errors.ts'
export { SettingsStore, type SettingsStoreOptions } from './settings-store.ts'
export { SettingsPlugin, type SettingsPluginConfig } from './settings-plugin.ts'
export { readSettingsFile, type SettingsFileState } from './read-settings-file.ts'
