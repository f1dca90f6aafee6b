// web_fetch in the permission policy: every mode but full-auto asks (what it sends leaves the
// machine), nobody to ask means a denial, and rules name a host (`domain:docs.python.org`), a
// host and the names below it (`domain:*.python.org`), or a URL pattern; Claude Code's
// `WebFetch(domain:…)` reads the same.
import { describe, expect, it } from 'vitest'
import type { PermissionMode } from '@dsh/contracts'
import { rulesForScope } from '@dsh/permissions'
import { verdictOf, type VerdictOptions } from './verdict-of.ts'

const cwd = '/work/repo'
const verdict = (mode: PermissionMode, url: string, options: VerdictOptions = {}) => verdictOf(mode, { tool: 'web_fetch', args: { url }, cwd }, options)

describe('web_fetch and permission modes', () => {
  it('asks in every mode but full-auto, and is denied when nobody can be asked', () => {
    const modes: PermissionMode[] = ['read-only', 'ask', 'auto-edit', 'full-auto', 'danger-full-access']
    expect(modes.map((mode) => verdict(mode, 'https://example.com/'))).toEqual(['ask', 'ask', 'ask', 'allow', 'allow'])
    expect(verdict('ask', 'https://example.com/', { interactive: false })).toBe('deny')
  })
})

describe('rules naming hosts', () => {
  it('allows a host, a host with its subdomains, or a URL pattern', () => {
    expect(verdict('ask', 'https://docs.python.org/3/', { allow: ['web_fetch(domain:docs.python.org)'] })).toBe('allow')
    expect(verdict('ask', 'https://evil.docs.python.org.attacker.net/', { allow: ['web_fetch(domain:docs.python.org)'] })).toBe('ask')
    expect(verdict('ask', 'https://peps.python.org/pep-8/', { allow: ['web_fetch(domain:*.python.org)'] })).toBe('allow')
    expect(verdict('ask', 'https://python.org/', { allow: ['web_fetch(domain:*.python.org)'] })).toBe('allow')
    expect(verdict('ask', 'https://notpython.org/', { allow: ['web_fetch(domain:*.python.org)'] })).toBe('ask')
    expect(verdict('ask', 'https://DOCS.Python.org./x', { allow: ['WebFetch(domain:docs.python.org)'] })).toBe('allow')
    expect(verdict('ask', 'https://github.com/nodejs/node/issues/1', { allow: ['web_fetch(https://github.com/nodejs/*)'] })).toBe('allow')
    expect(verdict('ask', 'https://github.com/other/x', { allow: ['web_fetch(https://github.com/nodejs/*)'] })).toBe('ask')
    expect(verdict('ask', 'not a url', { allow: ['web_fetch(domain:*)'] })).toBe('ask')
  })

  it('denies by host over full-auto and over an allow', () => {
    expect(verdict('full-auto', 'https://pastebin.com/raw/x', { deny: ['web_fetch(domain:pastebin.com)'] })).toBe('deny')
    expect(verdict('ask', 'https://pastebin.com/raw/x', { deny: ['WebFetch(domain:pastebin.com)'], allow: ['web_fetch'] })).toBe('deny')
    expect(verdict('full-auto', 'not a url', { deny: ['web_fetch(domain:example.com)'] })).toBe('deny')
  })
})

describe('"always" for a host', () => {
  it('becomes the rule web_fetch(domain:HOST), which allows that host only', () => {
    const [text] = rulesForScope('web_fetch', { kind: 'domain', host: 'docs.python.org' })
    expect(text).toBe('web_fetch(domain:docs.python.org)')
    const withSession = (url: string) => verdict('ask', url, { session: [text ?? ''] })
    expect(['https://docs.python.org/3/', 'http://DOCS.python.org./x', 'https://api.docs.python.org/', 'https://python.org/'].map(withSession)).toEqual(['allow', 'allow', 'ask', 'ask'])
  })
})
