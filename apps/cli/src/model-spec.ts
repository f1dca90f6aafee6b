/**
 * Parses `--model` specs and creates the provider: `deepseek:<model>` (default),
 * `openai:<model>` (with `--base-url`), `scripted:<file.json>`. A bare model name is DeepSeek's
 * (`--model deepseek-v4-pro`), as other agents take a bare name for their own provider.
 */
import { resolve } from 'node:path'
import type { ModelProvider } from '@dsh/contracts'
import { createOpenAiProvider, DEFAULT_DEEPSEEK_MODEL, retiredModelWarning, type ReasoningEffort, type ThinkingModes, type ThinkingSetting } from '@dsh/llm-openai'
import { createScriptedProvider, loadScript, type ModelScript } from '@dsh/llm-scripted'
import { usageError } from './cli-error.ts'
import type { ConfigFile } from './config-file.ts'

/** The default model spec (why this name: `DEFAULT_DEEPSEEK_MODEL` in `@dsh/llm-openai`). */
export const defaultModelSpec = `deepseek:${DEFAULT_DEEPSEEK_MODEL}`

/** A parsed spec. */
export type ModelSpec = { readonly kind: 'deepseek' | 'openai'; readonly model: string } | { readonly kind: 'scripted'; readonly file: string }

/** A model name without a provider: letters, digits, `.`, `_`, `-` (`deepseek-v4-pro`, `deepseek-flash`). */
const BARE_MODEL = /^[A-Za-z0-9][\w.-]*$/

/** Parses a spec string. */
export function parseModelSpec(spec: string): ModelSpec {
  if (BARE_MODEL.test(spec)) return { kind: 'deepseek', model: spec }
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
  readonly callTimeoutMs?: number | undefined
  readonly maxRetries?: number | undefined
  readonly contextWindow?: number | undefined
  /** DeepSeek thinking toggle (`model.thinking`, `--thinking` / `--no-thinking`). */
  readonly thinking?: ThinkingSetting | undefined
  /** DeepSeek reasoning effort (`model.reasoningEffort`, `--effort`). */
  readonly reasoningEffort?: ReasoningEffort | undefined
  /** Read at every request instead of `thinking` / `reasoningEffort` (live settings). */
  readonly modes?: (() => ThinkingModes) | undefined
  readonly log: (line: string) => void
}

/** Command-line choices of thinking that win over the config file's. */
export interface ThinkingFlags {
  /** `--thinking` (true) / `--no-thinking` (false); absent: the config decides. */
  readonly thinking?: boolean | undefined
  /** `--effort`. */
  readonly effort?: string | undefined
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
  /** `--thinking` / `--no-thinking` / `--effort`; they win over the config file and the live settings. */
  readonly flags?: ThinkingFlags | undefined
  /** The live `model` settings (the config file's values overridden by settings.yaml), read per request. */
  readonly live?: (() => ThinkingModes) | undefined
  readonly log: (line: string) => void
}

/** Parses `--effort`; anything but low, high or max is a usage error. */
export function effortFlag(value: string | undefined): ReasoningEffort | undefined {
  if (value === undefined) return undefined
  if (value === 'low' || value === 'high' || value === 'max') return value
  throw usageError(`--effort "${value}": expected low, high or max`)
}

/** Creates the provider for a spec with every connection setting of the config file's `model` section. */
export function providerFromConfig(inputs: ConfiguredProviderInputs): ModelProvider {
  const { model, live } = inputs
  const flagThinking = inputs.flags?.thinking === undefined ? undefined : inputs.flags.thinking ? 'enabled' : 'disabled'
  const flagEffort = effortFlag(inputs.flags?.effort)
  return createProvider({
    spec: inputs.spec,
    cwd: inputs.cwd,
    env: inputs.env,
    baseUrl: inputs.baseUrl ?? model?.baseUrl,
    apiKeyEnv: model?.apiKeyEnv,
    connectTimeoutMs: model?.connectTimeoutMs,
    idleTimeoutMs: model?.idleTimeoutMs,
    callTimeoutMs: model?.callTimeoutMs,
    maxRetries: model?.maxRetries,
    contextWindow: model?.contextWindow,
    thinking: flagThinking ?? model?.thinking,
    reasoningEffort: flagEffort ?? model?.reasoningEffort,
    modes: live === undefined ? undefined : () => {
      const now = live()
      return { thinking: flagThinking ?? now.thinking, reasoningEffort: flagEffort ?? now.reasoningEffort }
    },
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
  const retired = spec.kind === 'deepseek' ? retiredModelWarning(spec.model) : undefined
  if (retired !== undefined) inputs.log(`warning: ${retired}`)
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
    ...(inputs.callTimeoutMs === undefined ? {} : { callTimeoutMs: inputs.callTimeoutMs }),
    ...(inputs.maxRetries === undefined ? {} : { maxRetries: inputs.maxRetries }),
    ...(inputs.contextWindow === undefined ? {} : { contextWindow: inputs.contextWindow }),
    ...(inputs.thinking === undefined ? {} : { thinking: inputs.thinking }),
    ...(inputs.reasoningEffort === undefined ? {} : { reasoningEffort: inputs.reasoningEffort }),
    ...(inputs.modes === undefined ? {} : { modes: inputs.modes }),
  })
}
