/** Public surface of `@dsh/llm-openai`: the provider factory, its errors and capability facts. */
export { createOpenAiProvider, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS, type OpenAiProviderOptions } from './provider.ts'
export { ModelError, isModelError } from './errors.ts'
export { reasoningEchoFor, contextWindowFor, DEFAULT_CONTEXT_WINDOW, type OpenAiProviderKind } from './model-capabilities.ts'
export { DEFAULT_MAX_RETRIES, type Sleep } from './retry-policy.ts'
