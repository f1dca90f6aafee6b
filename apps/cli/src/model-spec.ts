/**
 * Parses `--model` specs and creates the provider: `deepseek:<model>` (default),
 * `openai:<model>` (with `--base-url`), `scripted:<file.json>`.
 */
import { resolve } from 'node:path'
import type { ModelProvider } from '@dsh/contracts'
import { createOpenAiProvider } from '@dsh/llm-openai'
import { createScriptedProvider, loadScript, type ModelScript } from '@dsh/llm-scripted'
import { usageError } from './cli-error.ts'
import type { ConfigFile } from './config-file.ts'

/** The default model spec. */
export const defaultModelSpec = 'deepseek:deepseek-chat'

/** A parsed spec. */
export type ModelSpec = { readonly kind: 'deepseek' | 'openai'; readonly model: string } | { readonly kind: 'scripted'; readonly file: string }

/** Parses a spec string. */
export function parseModelSpec(spec: string): ModelSpec {
  const colon = spec.indexOf(':')
  const kind = colon < 0 ? '' : spec.slice(0, colon)
  const rest = colon < 0 ? '' : spec.slice(colon + 1)
  if (rest === '') throw usageError(`--model "${spec}": expected deepseek:<model>, openai:<model> or scripted:<file.json>`)
  switch (kind) {
    case 'deepseek':
    case 'openai':
      return { kind, model: rest }
    case 'scripted':
      return { kind, file: rest }
    default:
      throw usageError(`--model "${spec}": unknown provider "${kind}" (use deepseek, openai or scripted)`)
  }
}

/** Inputs for creating a provider. */
export interface ProviderInputs {
  readonly spec: ModelSpec
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  readonly baseUrl?: string | undefined
  readonly apiKeyEnv?: string | undefined
  readonly connectTimeoutMs?: number | undefined
  readonly idleTimeoutMs?: number | undefined
  readonly maxRetries?: number | undefined
  readonly contextWindow?: number | undefined
  readonly log: (line: string) => void
}

/** Inputs of {@link providerFromConfig}. */
export interface ConfiguredProviderInputs {
  readonly spec: ModelSpec
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  /** `--base-url`; wins over `model.baseUrl`. */
  readonly baseUrl?: string | undefined
  /** The config file's `model` section. */
  readonly model?: ConfigFile['model']
  readonly log: (line: string) => void
}

/** Creates the provider for a spec with every connection setting of the config file's `model` section. */
export function providerFromConfig(inputs: ConfiguredProviderInputs): ModelProvider {
  const { model } = inputs
  return createProvider({
    spec: inputs.spec,
    cwd: inputs.cwd,
    env: inputs.env,
    baseUrl: inputs.baseUrl ?? model?.baseUrl,
    apiKeyEnv: model?.apiKeyEnv,
    connectTimeoutMs: model?.connectTimeoutMs,
    idleTimeoutMs: model?.idleTimeoutMs,
    maxRetries: model?.maxRetries,
    contextWindow: model?.contextWindow,
    log: inputs.log,
  })
}

/** Loads a script; a missing or invalid file is bad usage of `--model scripted:FILE` (exit 2), like a bad `--config`. */
function scriptOf(file: string): ModelScript {
  try {
    return loadScript(file)
  } catch (error) {
    // loadScript only throws ScriptError, and each one says what is wrong with the file.
    throw usageError(error instanceof Error ? error.message : String(error))
  }
}

/** Creates the provider for a spec. */
export function createProvider(inputs: ProviderInputs): ModelProvider {
  const { spec } = inputs
  if (spec.kind === 'scripted') {
    const file = resolve(inputs.cwd, spec.file)
    return createScriptedProvider(scriptOf(file), { origin: file, ...(inputs.contextWindow === undefined ? {} : { contextWindow: inputs.contextWindow }) })
  }
  return createOpenAiProvider({
    provider: spec.kind,
    model: spec.model,
    env: inputs.env,
    // Each retry is announced as one warning line: the attempt that comes next and the delay.
    logger: (line) => inputs.log(`warning: ${line}`),
    ...(inputs.baseUrl === undefined ? {} : { baseUrl: inputs.baseUrl }),
    // A named key variable is the only source of the key: the provider fails at creation when it
    // is unset instead of falling back to DEEPSEEK_API_KEY / OPENAI_API_KEY.
    ...(inputs.apiKeyEnv === undefined ? {} : { apiKeyEnv: inputs.apiKeyEnv }),
    ...(inputs.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: inputs.connectTimeoutMs }),
    ...(inputs.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: inputs.idleTimeoutMs }),
    ...(inputs.maxRetries === undefined ? {} : { maxRetries: inputs.maxRetries }),
    ...(inputs.contextWindow === undefined ? {} : { contextWindow: inputs.contextWindow }),
  })
}
