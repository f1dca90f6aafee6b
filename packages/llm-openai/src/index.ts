/** Public surface of `@dsh/llm-openai`: the provider factory, its errors and capability facts. */
export { createOpenAiProvider, DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS, type OpenAiProviderOptions, type ReasoningEffort, type ThinkingModes } from './provider.ts'
export { ModelError, isModelError } from './errors.ts'
export {
  reasoningEchoFor,
  contextWindowFor,
  modelCapabilitiesFor,
  retiredModelWarning,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_DEEPSEEK_MODEL,
  type ModelCapabilities,
  type OpenAiProviderKind,
  type ThinkingSetting,
} from './model-capabilities.ts'
export { listEndpointModels, type ListModelsOptions } from './model-listing.ts'
export { DEFAULT_MAX_RETRIES, type Sleep } from './retry-policy.ts'
