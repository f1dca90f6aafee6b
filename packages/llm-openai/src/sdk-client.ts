/**
 * The SDK client of a connection, made the same way for chat requests and `dsh models`: the key
 * and base URL given (never `OPENAI_ORG_ID` / `OPENAI_PROJECT_ID` read behind our back), SDK
 * logging off (failures surface as ModelErrors; console output would garble a TUI), and requests
 * through the environment's proxy when one is set (proxy-fetch.ts).
 */
import type OpenAI from 'openai'
import type { Connection } from './connection-config.ts'
import { proxiedFetch, type ProxySettings } from '@dsh/runtime'
import type { OpenAiSdk } from './sdk-loader.ts'

/** How the client behaves. */
export interface ClientOptions {
  readonly connection: Pick<Connection, 'apiKey' | 'baseUrl'>
  readonly maxRetries: number
  /** The SDK's request timeout (ms). */
  readonly timeoutMs: number
  /** The proxy variables of the environment; undefined: requests go direct. */
  readonly proxy: ProxySettings | undefined
}

/** A client of `sdk` for `options`. */
export function createClient(sdk: OpenAiSdk, options: ClientOptions): OpenAI {
  const fetch = options.proxy === undefined ? undefined : proxiedFetch(options.proxy)
  return new sdk.default({
    apiKey: options.connection.apiKey,
    baseURL: options.connection.baseUrl,
    organization: null,
    project: null,
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs,
    logLevel: 'off',
    ...(fetch === undefined ? {} : { fetch }),
  })
}
