/**
 * `dsh run PROMPT`: runs one turn (new or resumed session), prints the final answer on stdout
 * and `session: <id>` on stderr.
 */
import { appendFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { ChatRequestBody } from '@dsh/contracts'
import { CliError } from '../cli-error.ts'
import { errLine, type CliIo } from '../cli-io.ts'
import { composeHost } from '../compose.ts'
import { loadConfigFile, type ConfigFile } from '../config-file.ts'
import { cwdFrom, dshHomeFrom } from '../global-options.ts'
import { createProvider, defaultModelSpec, parseModelSpec } from '../model-spec.ts'

/** Share of the context window past which history is compacted automatically. */
export const defaultAutoCompactShare = 0.8

/** Options of `dsh run`. */
export interface RunOptions {
  readonly cwd?: string
  readonly model?: string
  readonly baseUrl?: string
  readonly config?: string
  readonly addDir?: readonly string[]
  readonly resume?: string
  readonly requestLog?: string
  readonly maxSteps?: number
  readonly dshHome?: string
}

/** Reads the config file, or an empty config. */
export function configFrom(io: CliIo, file: string | undefined): ConfigFile {
  return file === undefined ? {} : loadConfigFile(resolve(io.cwd, file))
}

/** Runs the command; returns the exit code. */
export async function runCommand(io: CliIo, prompt: string, options: RunOptions): Promise<number> {
  const dshHome = dshHomeFrom(io, options.dshHome)
  const cwd = cwdFrom(io, options.cwd)
  const config = configFrom(io, options.config)
  const log = (line: string): void => errLine(io, line)
  const spec = parseModelSpec(options.model ?? config.model?.spec ?? defaultModelSpec)
  const provider = createProvider({
    spec,
    cwd: io.cwd,
    env: io.env,
    baseUrl: options.baseUrl ?? config.model?.baseUrl,
    apiKeyEnv: config.model?.apiKeyEnv,
    timeoutMs: config.model?.timeoutMs,
    maxRetries: config.model?.maxRetries,
    contextWindow: config.model?.contextWindow,
    log,
  })
  const requestLog = options.requestLog === undefined ? undefined : resolve(io.cwd, options.requestLog)
  const host = await composeHost({ dshHome, cwd, config, log })
  try {
    const agent = await host.startAgent({
      cwd,
      provider,
      ...(options.resume === undefined ? {} : { resume: options.resume }),
      ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      autoCompact: { share: config.model?.autoCompactShare ?? defaultAutoCompactShare, useModel: spec.kind !== 'scripted' },
      ...(requestLog === undefined ? {} : { onRequest: (body: ChatRequestBody) => appendFileSync(requestLog, `${JSON.stringify(body)}\n`) }),
    })
    errLine(io, `session: ${agent.session.id}`)
    const controller = new AbortController()
    const onSigint = (): void => controller.abort()
    process.once('SIGINT', onSigint)
    try {
      const result = await agent.prompt(prompt, { signal: controller.signal })
      if (result.reason === 'cancelled') throw new CliError('cancelled')
      if (result.reason === 'blocked') throw new CliError('the turn was blocked before the model was called')
      if (result.reason === 'max-steps') errLine(io, `warning: stopped after the step limit (${options.maxSteps ?? 200})`)
      io.stdout.write(result.finalText.endsWith('\n') || result.finalText === '' ? result.finalText : `${result.finalText}\n`)
      return 0
    } finally {
      process.removeListener('SIGINT', onSigint)
    }
  } finally {
    await host.dispose()
  }
}
