/**
 * Model capability facts in one table: context windows and output limits of known models,
 * whether they think by default, which names DeepSeek retired (and what replaces them), and how
 * earlier reasoning must be sent back. Everything else in the package asks this file; no other
 * file hard-codes a model name.
 */

/** Which OpenAI-compatible flavour a provider speaks. */
export type OpenAiProviderKind = 'deepseek' | 'openai'

/** Context window used for a model missing from the table (and for local servers). */
export const DEFAULT_CONTEXT_WINDOW = 128_000

/**
 * The DeepSeek model of the default spec. `deepseek-v4-flash` rather than `deepseek-flash` (the
 * name the listing of 2026-09 shows for V4.1-Flash): the API has accepted `deepseek-v4-flash`
 * since 2026-04-24 and still serves it with V4.1-Flash at Flash prices, while `deepseek-flash`
 * is unknown to an endpoint (or gateway) that still runs the V4 listing. Both are the same model.
 */
export const DEFAULT_DEEPSEEK_MODEL = 'deepseek-v4-flash'

/** What dsh knows about one model. */
export interface ModelCapabilities {
  /** Context window in tokens. */
  readonly contextWindow: number
  /** Longest completion the API allows (`max_tokens` upper bound), when known. */
  readonly maxOutputTokens?: number
  /** True when the model thinks (streams `reasoning_content`) unless told `thinking: disabled`. */
  readonly thinksByDefault: boolean
  /** For a retired name: the name to use instead and the thinking setting it corresponds to. */
  readonly retired?: { readonly on: string; readonly replacement: string; readonly thinking: 'enabled' | 'disabled' }
}

/** DeepSeek V4 / V4.1 (pricing page, snapshot V4.1-Flash-1017): 1M context, 384K output, thinking on. */
const DEEPSEEK_V4: ModelCapabilities = { contextWindow: 1_048_576, maxOutputTokens: 393_216, thinksByDefault: true }

/** Known models. Names match the `model` field exactly. */
const MODELS: ReadonlyMap<string, ModelCapabilities> = new Map([
  ['deepseek-flash', DEEPSEEK_V4],
  ['deepseek-v4-flash', DEEPSEEK_V4],
  ['deepseek-v4-flash-vision-exp', DEEPSEEK_V4],
  ['deepseek-v4-pro', DEEPSEEK_V4],
  // Retired 2026-07-24 15:59 UTC; until then aliases of V4-Flash non-thinking / thinking.
  ['deepseek-chat', { contextWindow: 128_000, thinksByDefault: false, retired: { on: '2026-07-24', replacement: DEFAULT_DEEPSEEK_MODEL, thinking: 'disabled' } }],
  ['deepseek-reasoner', { contextWindow: 128_000, thinksByDefault: true, retired: { on: '2026-07-24', replacement: DEFAULT_DEEPSEEK_MODEL, thinking: 'enabled' } }],
  // OpenAI chat-completions models.
  ['gpt-4o', { contextWindow: 128_000, thinksByDefault: false }],
  ['gpt-4o-mini', { contextWindow: 128_000, thinksByDefault: false }],
  ['gpt-4.1', { contextWindow: 1_047_576, thinksByDefault: false }],
  ['gpt-4.1-mini', { contextWindow: 1_047_576, thinksByDefault: false }],
  ['gpt-4.1-nano', { contextWindow: 1_047_576, thinksByDefault: false }],
])

/** The table entry for `model`, if it is known. */
export function modelCapabilitiesFor(model: string): ModelCapabilities | undefined {
  return MODELS.get(model)
}

/** Context window for `model`: the table entry, else {@link DEFAULT_CONTEXT_WINDOW}. */
export function contextWindowFor(model: string): number {
  return MODELS.get(model)?.contextWindow ?? DEFAULT_CONTEXT_WINDOW
}

/**
 * The one-line warning for a retired DeepSeek name (undefined for any other), e.g.
 * `deepseek-chat was retired by DeepSeek on 2026-07-24; use deepseek:deepseek-v4-flash with model.thinking: disabled …`.
 */
export function retiredModelWarning(model: string): string | undefined {
  const retired = MODELS.get(model)?.retired
  if (retired === undefined) return undefined
  return `${model} was retired by DeepSeek on ${retired.on}; use --model deepseek:${retired.replacement} (model.spec) with model.thinking: ${retired.thinking} instead (the request is sent as written)`
}

/** Whether thinking is on for a request: the explicit setting, else DeepSeek's default (on). */
export type ThinkingSetting = 'enabled' | 'disabled'

/**
 * How earlier reasoning must be sent back, as `ModelProvider.reasoningEcho`.
 *
 * DeepSeek in thinking mode (on by default, docs "Thinking Mode"): when a request carries
 * `tools`, the `reasoning_content` of every earlier assistant message must come back (`""`
 * allowed), across turns too, or the API answers 400; without tools it is ignored, so it is not
 * sent. With thinking disabled there is no reasoning to echo. OpenAI and other OpenAI-compatible
 * servers do not define the field: never sent.
 */
export function reasoningEchoFor(provider: OpenAiProviderKind, thinking?: ThinkingSetting): 'with-tools' | undefined {
  return provider === 'deepseek' && thinking !== 'disabled' ? 'with-tools' : undefined
}
