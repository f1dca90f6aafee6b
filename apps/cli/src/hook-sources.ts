/**
 * The hooks a command outside an agent host reads (`dsh hooks list`, `dsh compact`): the config
 * file's `hooks` section, settings.yaml's `hooks` as it is on disk, and the directory's project
 * files (trusted ones run).
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse } from 'yaml'
import { loadHookSet, type HookSet } from '@dsh/hooks'
import type { CliIo } from './cli-io.ts'
import type { ConfigFile } from './config-file.ts'

/** The `hooks` section of settings.yaml as it is on disk (undefined when absent or unreadable). */
export function settingsHooksSection(dshHome: string): unknown {
  try {
    const value: unknown = parse(readFileSync(join(dshHome, 'settings.yaml'), 'utf8'), { logLevel: 'error' })
    return typeof value === 'object' && value !== null && 'hooks' in value ? value.hooks : undefined
  } catch {
    // No settings file (or one the settings service itself reports when an agent runs): no hooks from it.
    return undefined
  }
}

/** Every hook configured for `cwd`. */
export function hookSetFor(io: CliIo, options: { readonly cwd: string; readonly dshHome: string; readonly config: ConfigFile; readonly configPath?: string | undefined }): HookSet {
  const { config, configPath } = options
  const section = config.hooks === undefined || configPath === undefined ? {} : { config: { file: resolve(io.cwd, configPath), section: config.hooks } }
  return loadHookSet({ cwd: options.cwd, dshHome: options.dshHome, settingsSection: settingsHooksSection(options.dshHome), ...section })
}
