/**
 * The hooks plugin of a composition: the config file's `hooks` section, settings.yaml's and the
 * cwd's trusted project files, run with dsh's environment minus the model provider's keys (and
 * the variable `model.apiKeyEnv` names).
 */
import { createHooksPlugin } from '@dsh/hooks'
import type { ComposeOptions } from './compose.ts'

/** The plugin for `options`; `mode` is the permission mode in force. */
export function hooksPlugin(options: ComposeOptions, mode: string): ReturnType<typeof createHooksPlugin> {
  const apiKeyEnv = options.config.model?.apiKeyEnv
  return createHooksPlugin({
    cwd: options.cwd,
    dshHome: options.dshHome,
    ...(options.config.hooks === undefined ? {} : { config: { file: options.configPath ?? 'the config file', section: options.config.hooks } }),
    env: options.env ?? {},
    secretNames: apiKeyEnv === undefined ? [] : [apiKeyEnv],
    permissionMode: mode,
    warn: options.log,
  })
}
