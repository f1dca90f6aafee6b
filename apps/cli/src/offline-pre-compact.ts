/**
 * PreCompact for `dsh compact ID`, which composes no host: the hooks configured for the session's
 * directory run as the hooks plugin runs them (`trigger` `manual`, no custom instructions, the
 * environment minus the provider's keys), their runs recorded in the session's log, which the
 * command holds open. Resolves with the reason a hook gave to stop the compaction, or undefined.
 */
import { createHookRunner, runnable, type HookTarget } from '@dsh/hooks'
import type { Session } from '@dsh/runtime'
import { errLine, type CliIo } from './cli-io.ts'
import type { ConfigFile } from './config-file.ts'
import { hookSetFor } from './hook-sources.ts'

/** Options of {@link offlinePreCompact}. */
export interface OfflinePreCompactOptions {
  readonly session: Session
  readonly dshHome: string
  readonly config: ConfigFile
  readonly configPath?: string | undefined
}

/** Runs the PreCompact hooks of `options.session`. */
export async function offlinePreCompact(io: CliIo, options: OfflinePreCompactOptions): Promise<string | undefined> {
  const { session, config } = options
  const cwd = session.header.cwd
  const set = hookSetFor(io, { cwd, dshHome: options.dshHome, config, configPath: options.configPath })
  for (const problem of set.problems) errLine(io, `warning: ${problem}`)
  const entries = runnable(set, 'PreCompact')
  if (entries.length === 0) return undefined
  const keyEnv = config.model?.apiKeyEnv
  const runner = createHookRunner({ cwd, dshHome: options.dshHome, env: io.env, secretNames: keyEnv === undefined ? [] : [keyEnv], permissionMode: config.permissions?.mode ?? 'ask', warn: (line) => errLine(io, line) })
  const target: HookTarget = { id: session.id, cwd, recordEvent: (type, data) => void session.append(type, data) }
  const verdict = await runner.run('PreCompact', target, { trigger: 'manual', custom_instructions: '' }, entries)
  if (verdict.block !== undefined) runner.decision(target, { event: 'PreCompact', decision: 'block', reason: verdict.block })
  return verdict.block
}
