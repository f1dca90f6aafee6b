/**
 * Configuration: which endpoint and key a provider uses, the loopback no-key rule, and the
 * one-line `MODEL_CONFIG` errors raised at creation.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createOpenAiProvider, isModelError, ModelError } from '../src/index.ts'
import { DEEPSEEK_BASE_URL, isLoopbackHost, OPENAI_BASE_URL, resolveConnection } from '../src/connection-config.ts'
import { startSseServer, type SseServer } from '@dsh/testkit'
import { collect, finish, messageOf, text } from './helpers.ts'

let server: SseServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function creationError(create: () => unknown): unknown {
  try {
    create()
  } catch (error) {
    // Swallows the expected creation failure: returned for assertions.
    return error
  }
  throw new Error('expected creation to throw')
}

describe('missing key', () => {
  it('throws a one-line MODEL_CONFIG error naming DEEPSEEK_API_KEY', () => {
    const error = creationError(() => createOpenAiProvider({ provider: 'deepseek', model: 'deepseek-v4-flash', env: {} }))
    expect(error).toBeInstanceOf(ModelError)
    expect(isModelError(error)).toBe(true)
    expect(error).toMatchObject({ code: 'MODEL_CONFIG' })
    const message = messageOf(error)
    expect(message.startsWith('DEEPSEEK_API_KEY is not set')).toBe(true)
    expect(message).toContain('model.apiKeyEnv')
    expect(message).not.toContain('\n')
  })

  it('names OPENAI_API_KEY for the openai provider, and treats a blank key as missing', () => {
    const error = creationError(() => createOpenAiProvider({ provider: 'openai', model: 'gpt-4o', env: { OPENAI_API_KEY: '  ' } }))
    expect(error).toMatchObject({ code: 'MODEL_CONFIG' })
    expect(messageOf(error)).toMatch(/^OPENAI_API_KEY is not set/)
  })

  it('a named key variable (apiKeyEnv) is the only source of the key: unset is an error, never the default variable', () => {
    const env = { DEEPSEEK_API_KEY: 'sk-deepseek', OPENAI_API_KEY: 'sk-openai' }
    const error = creationError(() => createOpenAiProvider({ provider: 'openai', model: 'm', baseUrl: 'https://proxy.example/v1', apiKeyEnv: 'MY_PROXY_KEY', env }))
    expect(error).toMatchObject({ code: 'MODEL_CONFIG' })
    expect(messageOf(error)).toBe('MY_PROXY_KEY (model.apiKeyEnv) is not set: export it (needed for https://proxy.example/v1)')
    expect(messageOf(creationError(() => createOpenAiProvider({ provider: 'deepseek', model: 'm', apiKeyEnv: 'MY_PROXY_KEY', env: { ...env, MY_PROXY_KEY: ' ' } })))).toMatch(/^MY_PROXY_KEY \(model\.apiKeyEnv\) is not set/)
  })

  it('a named key variable must be set even for a loopback server', () => {
    const error = creationError(() => createOpenAiProvider({ provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:8000/v1', apiKeyEnv: 'LOCAL_KEY', env: {} }))
    expect(messageOf(error)).toBe('LOCAL_KEY (model.apiKeyEnv) is not set: export it (needed for http://127.0.0.1:8000/v1)')
  })

  it('rejects a base URL that is not http(s)', () => {
    const error = creationError(() => createOpenAiProvider({ provider: 'openai', model: 'm', baseUrl: 'not a url', env: {} }))
    expect(error).toMatchObject({ code: 'MODEL_CONFIG' })
  })
})

describe('endpoint and key resolution', () => {
  it('uses the DeepSeek endpoint and DEEPSEEK_API_KEY by default; an explicit key wins', () => {
    expect(resolveConnection({ provider: 'deepseek', env: { DEEPSEEK_API_KEY: 'sk-env' } })).toEqual({
      baseUrl: DEEPSEEK_BASE_URL,
      apiKey: 'sk-env',
      keyVariable: 'DEEPSEEK_API_KEY',
      keyHint: 'DEEPSEEK_API_KEY (or model.apiKeyEnv in the config file)',
    })
    expect(resolveConnection({ provider: 'deepseek', apiKey: 'sk-flag', env: { DEEPSEEK_API_KEY: 'sk-env' } }).apiKey).toBe('sk-flag')
  })

  it('reads the key from the named variable (apiKeyEnv) when it is set', () => {
    expect(resolveConnection({ provider: 'deepseek', apiKeyEnv: 'MY_PROXY_KEY', env: { DEEPSEEK_API_KEY: 'sk-env', MY_PROXY_KEY: 'sk-proxy' } })).toEqual({
      baseUrl: DEEPSEEK_BASE_URL,
      apiKey: 'sk-proxy',
      keyVariable: 'MY_PROXY_KEY',
      keyHint: 'MY_PROXY_KEY (model.apiKeyEnv)',
    })
  })

  it('resolves the openai base URL from the option, then OPENAI_BASE_URL, then the public endpoint', () => {
    const env = { OPENAI_API_KEY: 'sk-o', OPENAI_BASE_URL: 'https://gateway.example/v1' }
    expect(resolveConnection({ provider: 'openai', env }).baseUrl).toBe('https://gateway.example/v1')
    expect(resolveConnection({ provider: 'openai', baseUrl: 'https://other.example/v1', env }).baseUrl).toBe('https://other.example/v1')
    expect(resolveConnection({ provider: 'openai', env: { OPENAI_API_KEY: 'sk-o' } }).baseUrl).toBe(OPENAI_BASE_URL)
  })

  it('uses the placeholder key for a loopback server without a key', () => {
    expect(resolveConnection({ provider: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', env: {} }).apiKey).toBe('not-needed')
    expect(resolveConnection({ provider: 'openai', env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' } }).apiKey).toBe('not-needed')
    expect(resolveConnection({ provider: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', env: { OPENAI_API_KEY: 'sk-real' } }).apiKey).toBe('sk-real')
  })

  it('recognises loopback hosts only', () => {
    for (const host of ['localhost', 'api.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1']) expect(isLoopbackHost(host)).toBe(true)
    for (const host of ['api.deepseek.com', '10.0.0.1', '0.0.0.0', '127.0.0.1.example.com', 'localhost.example.com']) expect(isLoopbackHost(host)).toBe(false)
  })

  it('talks to a keyless local server, sending the placeholder as the bearer token', async () => {
    server = await startSseServer([{ kind: 'sse', chunks: [text('local'), finish()] }])
    const provider = createOpenAiProvider({ provider: 'openai', model: 'qwen', baseUrl: server.baseUrl, env: {} })
    expect(provider).toMatchObject({ id: 'openai', model: 'qwen', contextWindow: 128_000 })
    expect(await collect(provider)).toEqual([{ type: 'text', text: 'local' }])
    expect(server.requests[0]?.headers.authorization).toBe('Bearer not-needed')
  })
})
