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
 * Whether assistant messages in the request body must carry their earlier `reasoning_content`.
 *
 * Always false. DeepSeek documents that reasoning from previous turns must not be sent back to
 * `deepseek-reasoner` (a 400 if it is); its newer thinking-mode models want reasoning echoed
 * only for tool-call continuation inside the same turn, which the shared body builder cannot
 * express per message yet. OpenAI and local servers ignore or reject the field. See the README,
 * "Known limitations".
 */
export function requiresReasoningEcho(provider: OpenAiProviderKind, model: string): boolean {
  void provider
  void model
  return false
}
