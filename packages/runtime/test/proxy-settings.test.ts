// Which proxy a model request goes through, as the error messages name it: the variables read as
// curl reads them (lowercase first), https falling back to HTTP_PROXY, NO_PROXY matched as undici
// matches it (hosts with their subdomains, a leading dot or "*." dropped, ":port", "*" alone), and
// credentials never shown.
import { describe, expect, it } from 'vitest'
import { proxyDisplay, proxyFor, proxySettings, proxyUrlFor } from '../src/proxy-settings.ts'

/** Whether a request to `url` goes through the proxy under `noProxy`. */
const through = (noProxy: string, url: string): boolean => proxyFor(proxySettings({ HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1', NO_PROXY: noProxy }), url) !== undefined

describe('proxy settings', () => {
  it('are absent without HTTP_PROXY or HTTPS_PROXY, and read lowercase names first', () => {
    expect(proxySettings({})).toBeUndefined()
    expect(proxySettings({ NO_PROXY: 'example.com', HTTP_PROXY: '  ' })).toBeUndefined()
    expect(proxySettings({ HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:2', NO_PROXY: 'a', no_proxy: '' })).toEqual({ httpProxy: 'http://lower:2', httpsProxy: '', noProxy: 'a' })
  })

  it('name the proxy a request uses, https falling back to HTTP_PROXY, and none for a host NO_PROXY names', () => {
    const both = proxySettings({ HTTPS_PROXY: 'http://tls-proxy:3128', HTTP_PROXY: 'http://plain-proxy:3128' })
    expect(proxyFor(both, 'https://api.deepseek.com')).toBe('http://tls-proxy:3128')
    expect(proxyFor(both, 'http://127.0.0.1:8080/v1')).toBe('http://plain-proxy:3128')
    expect(proxyFor(proxySettings({ HTTP_PROXY: 'http://plain-proxy:3128' }), 'https://api.deepseek.com')).toBe('http://plain-proxy:3128')
    expect(proxyFor(proxySettings({ HTTPS_PROXY: 'http://tls-proxy:3128' }), 'http://127.0.0.1:8080')).toBeUndefined()
    expect(proxyFor(undefined, 'https://api.deepseek.com')).toBeUndefined()
  })

  it('match NO_PROXY as undici does', () => {
    expect(through('deepseek.com', 'https://api.deepseek.com')).toBe(false)
    expect(through('.deepseek.com', 'https://api.deepseek.com')).toBe(false)
    expect(through('*.deepseek.com', 'https://deepseek.com')).toBe(false)
    expect(through('seek.com', 'https://api.deepseek.com')).toBe(true)
    expect(through('api.deepseek.com:8443', 'https://api.deepseek.com')).toBe(true)
    expect(through('api.deepseek.com:443', 'https://api.deepseek.com')).toBe(false)
    expect(through('localhost, 127.0.0.1', 'http://127.0.0.1:9000')).toBe(false)
    expect(through('*', 'https://api.deepseek.com')).toBe(false)
    // "*" among other entries is no wildcard to undici.
    expect(through('*,example.com', 'https://api.deepseek.com')).toBe(true)
    expect(through('API.DeepSeek.com', 'https://api.deepseek.com')).toBe(false)
  })

  it('give the proxy URL itself to the code that connects, credentials and all', () => {
    expect(proxyUrlFor(proxySettings({ HTTPS_PROXY: 'http://user:pa55@proxy.corp:3128' }), 'https://api.deepseek.com')).toBe('http://user:pa55@proxy.corp:3128')
    expect(proxyUrlFor(proxySettings({ HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: 'deepseek.com' }), 'https://api.deepseek.com')).toBeUndefined()
    expect(proxyUrlFor(proxySettings({ HTTPS_PROXY: 'http://proxy.corp:3128' }), 'not a url')).toBeUndefined()
  })

  it('never show credentials', () => {
    expect(proxyDisplay('http://user:pa55@proxy.corp:3128')).toBe('http://***@proxy.corp:3128')
    expect(proxyDisplay('http://proxy.corp:3128/')).toBe('http://proxy.corp:3128')
    expect(proxyDisplay('not a url')).toBe('not a url')
    // No scheme: "proxy.corp:" parses as one, with no origin to show.
    expect(proxyDisplay('proxy.corp:3128')).toBe('proxy.corp:3128')
    expect(proxyDisplay('socks5://u:p@h:1')).toBe('***')
    // Credentials without a scheme are not shown either.
    expect(proxyDisplay('dev:s3cret@proxy.corp:3128')).toBe('***@proxy.corp:3128')
    expect(proxyDisplay('dev:s3cret@not a url')).toBe('***@not a url')
  })
})
