/**
 * `dsh models [--base-url URL]`: the models an OpenAI-compatible endpoint serves (`GET /models`),
 * one name per line, for choosing `--model deepseek:NAME` / `model.spec`. The provider comes from
 * `--model` (only its provider part matters), else `model.spec` of the config, else DeepSeek.
 */
import { listEndpointModels } from '@dsh/llm-openai'
import { usageError } from '../cli-error.ts'
import { errLine, type CliIo } from '../cli-io.ts'
import { configFrom } from '../agent-setup.ts'
import { defaultModelSpec, parseModelSpec } from '../model-spec.ts'

/** Options of `dsh models`. */
export interface ModelsOptions {
  readonly model?: string
  readonly baseUrl?: string
  readonly config?: string
}

/** Lists the endpoint's models on stdout; returns the exit code. */
export async function modelsCommand(io: CliIo, options: ModelsOptions): Promise<number> {
  const config = configFrom(io, options.config)
  const spec = parseModelSpec(options.model ?? config.model?.spec ?? defaultModelSpec)
  if (spec.kind === 'scripted') throw usageError('dsh models: a scripted model has no endpoint; use --model deepseek:… or openai:… with --base-url')
  const baseUrl = options.baseUrl ?? config.model?.baseUrl
  const { baseUrl: used, names } = await listEndpointModels({
    provider: spec.kind,
    env: io.env,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(config.model?.apiKeyEnv === undefined ? {} : { apiKeyEnv: config.model.apiKeyEnv }),
    ...(config.model?.connectTimeoutMs === undefined ? {} : { timeoutMs: config.model.connectTimeoutMs }),
  })
  if (names.length === 0) {
    errLine(io, `${used} lists no models (GET /models)`)
    return 1
  }
  for (const name of names) io.stdout.write(`${name}\n`)
  errLine(io, `use one with --model ${spec.kind}:NAME or model.spec in the config file`)
  return 0
}
