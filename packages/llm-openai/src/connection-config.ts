/**
 * Resolves where a provider connects and with which key: explicit options first, then the
 * environment, then per-provider defaults. A loopback server may run without a key; anything
 * else without a key is a `MODEL_CONFIG` error raised at creation, naming the variable to set.
 * A named key variable (`apiKeyEnv`) is the only place the key is read from: it never falls back
 * to the provider's default variable (that key belongs to another host), and it must be set even
 * for a loopback server, since naming it says a key is wanted.
 */
import { ModelError } from './errors.ts'
import type { OpenAiProviderKind } from './model-capabilities.ts'

/** DeepSeek's public endpoint (OpenAI-compatible). */
export const DEEPSEEK_BASE_URL = 'https://api.deepseek.com'
/** OpenAI's public endpoint. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1'
/** Key sent to loopback servers that need none (the SDK refuses an empty key). */
export const LOOPBACK_PLACEHOLDER_KEY = 'not-needed'

/** Inputs to {@link resolveConnection}. */
export interface ConnectionOptions {
  readonly provider: OpenAiProviderKind
  readonly baseUrl?: string | undefined
  readonly apiKey?: string | undefined
  /** Variable that holds the key instead of the provider's default one (`model.apiKeyEnv`). */
  readonly apiKeyEnv?: string | undefined
  readonly env: Readonly<Record<string, string | undefined>>
}

/** A resolved endpoint and key. */
export interface Connection {
  /** Base URL handed to the SDK (`…/chat/completions` is appended by it). */
  readonly baseUrl: string
  /** Key sent as `Authorization: Bearer …`. */
  readonly apiKey: string
  /** Environment variable that supplies the key for this provider, for error hints. */
  readonly keyVariable: string
  /** How to name the key in error hints, e.g. `MY_KEY (model.apiKeyEnv)`. */
  readonly keyHint: string
}

/** Resolves base URL and key, or throws a one-line `MODEL_CONFIG` error. */
export function resolveConnection(options: ConnectionOptions): Connection {
  const isDeepSeek = options.provider === 'deepseek'
  const keyVariable = isDeepSeek ? 'DEEPSEEK_API_KEY' : 'OPENAI_API_KEY'
  const baseUrl = nonEmpty(options.baseUrl) ?? (isDeepSeek ? DEEPSEEK_BASE_URL : (nonEmpty(options.env.OPENAI_BASE_URL) ?? OPENAI_BASE_URL))
  const host = parseHost(baseUrl)
  const named = nonEmpty(options.apiKeyEnv)
  if (named !== undefined) {
    const key = nonEmpty(options.apiKey) ?? nonEmpty(options.env[named])
    const keyHint = `${named} (model.apiKeyEnv)`
    if (key !== undefined) return { baseUrl, apiKey: key, keyVariable: named, keyHint }
    throw new ModelError('MODEL_CONFIG', `${keyHint} is not set: export it (needed for ${baseUrl})`)
  }
  const keyHint = `${keyVariable} (or model.apiKeyEnv in the config file)`
  const key = nonEmpty(options.apiKey) ?? nonEmpty(options.env[keyVariable])
  if (key !== undefined) return { baseUrl, apiKey: key, keyVariable, keyHint }
  if (isLoopbackHost(host)) return { baseUrl, apiKey: LOOPBACK_PLACEHOLDER_KEY, keyVariable, keyHint }
  throw new ModelError('MODEL_CONFIG', `${keyVariable} is not set: export it, or name another variable with model.apiKeyEnv in the config file (needed for ${baseUrl})`)
}

/** True for `localhost`, `*.localhost`, 127.0.0.0/8 and `::1`: servers on this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true
  if (bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true
  return /^127(?:\.\d{1,3}){3}$/.test(bare)
}

function parseHost(baseUrl: string): string {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    // Swallows the TypeError from an unparseable URL: rethrown as a one-line MODEL_CONFIG error.
    throw new ModelError('MODEL_CONFIG', `base URL is not a valid URL: ${baseUrl} (expected e.g. http://127.0.0.1:8000/v1)`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelError('MODEL_CONFIG', `base URL must use http or https: ${baseUrl}`)
  }
  return url.hostname
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed === undefined || trimmed === '' ? undefined : trimmed
}
