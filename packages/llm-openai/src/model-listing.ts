/**
 * The endpoint's model list (`GET /models`, the OpenAI list shape DeepSeek also serves): used by
 * `dsh models` and to turn an unknown-model refusal into one line naming what the endpoint
 * serves and how to pick one.
 */
import type OpenAI from 'openai'
import { proxyFor, proxySettings } from '@dsh/runtime'
import { resolveConnection, type ConnectionOptions } from './connection-config.ts'
import { classifyFailure, toModelError } from './failure-classification.ts'
import { createClient } from './sdk-client.ts'
import { loadSdk } from './sdk-loader.ts'

/** Names of the models `client`'s endpoint lists, sorted; throws what the SDK throws. */
export async function fetchModelNames(client: OpenAI, signal?: AbortSignal): Promise<string[]> {
  const names: string[] = []
  for await (const model of client.models.list(signal === undefined ? {} : { signal })) names.push(model.id)
  return names.toSorted()
}

/**
 * True when a refusal's server message says the model does not exist: DeepSeek's
 * `Model Not Exist`, OpenAI's `model_not_found` / "The model `x` does not exist", and the
 * usual wordings of local servers.
 */
export function isUnknownModelMessage(status: number | undefined, detail: string): boolean {
  if (status !== 400 && status !== 404) return false
  return /model not exist|model_not_found|model .*does not exist|unknown model|model .*not found|invalid model/i.test(detail)
}

/** The hint appended to an unknown-model error: what the endpoint serves and where to choose. */
export function unknownModelHint(provider: string, names: readonly string[] | undefined): string {
  const pick = `pick one with --model ${provider}:NAME or model.spec in the config file`
  if (names === undefined) return `the endpoint did not list its models (GET /models failed); ${pick}`
  if (names.length === 0) return `the endpoint lists no models (GET /models); ${pick}`
  return `the endpoint serves ${names.join(', ')}; ${pick}`
}

/** Options of {@link listEndpointModels}: where to ask, with which key. */
export interface ListModelsOptions extends ConnectionOptions {
  /** Milliseconds to wait for the answer; default 30000. */
  readonly timeoutMs?: number | undefined
  /** Cancels the request. */
  readonly signal?: AbortSignal | undefined
}

/** The models an endpoint lists (`dsh models`); failures are one-line `ModelError`s as for a chat request. */
export async function listEndpointModels(options: ListModelsOptions): Promise<{ readonly baseUrl: string; readonly names: readonly string[] }> {
  const connection = resolveConnection(options)
  const sdk = await loadSdk()
  const proxy = proxySettings(options.env)
  const client = createClient(sdk, { connection, maxRetries: 1, timeoutMs: options.timeoutMs ?? 30_000, proxy })
  try {
    return { baseUrl: connection.baseUrl, names: await fetchModelNames(client, options.signal) }
  } catch (error) {
    // Swallows the SDK's error: rethrown as the same one-line ModelError a chat request gives.
    throw toModelError(classifyFailure(error, sdk), { provider: options.provider, baseUrl: connection.baseUrl, keyHint: connection.keyHint, proxy: proxyFor(proxy, connection.baseUrl) }, 0, error)
  }
}
