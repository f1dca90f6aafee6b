/**
 * Model capability facts in one table: context windows of known models and whether a provider
 * needs earlier reasoning echoed back. Everything else in the package asks this file; no other
 * file hard-codes a model name.
 */

/** Which OpenAI-compatible flavour a provider speaks. */
export type OpenAiProviderKind = 'deepseek' | 'openai'

/** Context window used for a model missing from the table (and for local servers). */
export const DEFAULT_CONTEXT_WINDOW = 128_000

/** Known models → context window in tokens. Names match the `model` field exactly. */
const CONTEXT_WINDOWS: ReadonlyMap<string, number> = new Map([
  // DeepSeek API (docs, "Models & Pricing"): both aliases serve a 128K context.
  ['deepseek-chat', 128_000],
  ['deepseek-reasoner', 128_000],
  // OpenAI chat-completions models.
  ['gpt-4o', 128_000],
  ['gpt-4o-mini', 128_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4.1-mini', 1_047_576],
  ['gpt-4.1-nano', 1_047_576],
])

/** Context window for `model`: the table entry, else {@link DEFAULT_CONTEXT_WINDOW}. */
export function contextWindowFor(model: string): number {
  return CONTEXT_WINDOWS.get(model) ?? DEFAULT_CONTEXT_WINDOW
}

/**
 * How earlier reasoning must be sent back, as `ModelProvider.reasoningEcho`.
 *
 * DeepSeek (thinking mode is on by default for its current models): reasoning of assistant
 * messages in a stretch between two user messages where the model called tools must be sent back
 * in every later request, or the API answers 400; elsewhere it is ignored, so it is not sent.
 * OpenAI and other OpenAI-compatible servers do not define the field: never sent.
 */
export function reasoningEchoFor(provider: OpenAiProviderKind): 'tool-segments' | undefined {
  return provider === 'deepseek' ? 'tool-segments' : undefined
}
