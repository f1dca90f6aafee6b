/**
 * The `openai` SDK, loaded by a provider's first request: a composition that never calls an
 * OpenAI-compatible model (a scripted run, `dsh --version`, `dsh sessions`) neither loads nor
 * parses it (in the CLI bundle it is a separate chunk).
 */
export type OpenAiSdk = typeof import('openai')

/** Loads the SDK (once: the module system caches it). */
export const loadSdk = (): Promise<OpenAiSdk> => import('openai')
