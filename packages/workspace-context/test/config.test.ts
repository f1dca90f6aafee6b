// Configuration: defaults, validation, home resolution and display, candidate-name filtering, identity.
import { describe, expect, it } from 'vitest'
import { baselineIdentity, Config, resolveConfig } from '../src/config.ts'
import { isSameDirectoryName } from '../src/candidate-names.ts'

const env = { env: {}, home: '/home/user' }

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = resolveConfig({ maxBytes: 65536 }, env)
    expect(config).toMatchObject({
      enabled: true,
      dshHome: '/home/user/.dsh',
      userGlobalDisplay: '~/.dsh/AGENTS.md',
      projectRootMarkers: ['.git'],
      maxSourceBytes: 1_048_576,
      maxFileShare: 0.5,
      instructionFileCandidates: ['AGENTS.override.md', 'AGENTS.md', 'CLAUDE.md'],
      localInstructionFileCandidates: ['AGENTS.local.md', 'CLAUDE.local.md'],
      candidatePolicy: 'first',
      followSymlinks: true,
      instructionReadPolicy: 'trusted-roots',
    })
  })

  it('requires an explicit maxBytes', () => {
    const parsed = Config.safeParse({})
    expect(parsed.success).toBe(false)
    expect(JSON.stringify(parsed.error?.issues)).toContain('maxBytes')
  })

  it.each([0, -1, Number.POSITIVE_INFINITY, Number.NaN])('disables everything for maxBytes %s', (maxBytes) => {
    expect(resolveConfig({ maxBytes }, env).enabled).toBe(false)
  })

  it('rejects a non-positive or fractional maxSourceBytes', () => {
    expect(Config.safeParse({ maxBytes: 1, maxSourceBytes: 0 }).success).toBe(false)
    expect(Config.safeParse({ maxBytes: 1, maxSourceBytes: 1.5 }).success).toBe(false)
  })

  it('uses $DSH_HOME when no home is configured and labels it $DSH_HOME', () => {
    const config = resolveConfig({ maxBytes: 1 }, { env: { DSH_HOME: '/opt/dsh' }, home: '/home/user' })
    expect(config.dshHome).toBe('/opt/dsh')
    expect(config.userGlobalDisplay).toBe('$DSH_HOME/AGENTS.md')
  })

  it('prefers a configured home over $DSH_HOME', () => {
    expect(resolveConfig({ maxBytes: 1, dshHome: '/srv/h' }, { env: { DSH_HOME: '/opt/dsh' }, home: '/home/user' }).dshHome).toBe('/srv/h')
  })

  it.each(['~/.dsh', '~\\.dsh', '/home/user/.dsh'])('labels %s as the default home', (dshHome) => {
    const config = resolveConfig({ maxBytes: 1, dshHome }, env)
    expect(config.dshHome).toBe('/home/user/.dsh')
    expect(config.userGlobalDisplay).toBe('~/.dsh/AGENTS.md')
  })

  it('expands ~/ against the OS home for a custom home', () => {
    const config = resolveConfig({ maxBytes: 1, dshHome: '~/elsewhere' }, env)
    expect(config.dshHome).toBe('/home/user/elsewhere')
    expect(config.userGlobalDisplay).toBe('$DSH_HOME/AGENTS.md')
  })

  it('drops candidate names that are not one portable same-directory component', () => {
    const config = resolveConfig({ maxBytes: 1, instructionFileCandidates: ['', '.', '..', 'a/AGENTS.md', 'a\\b.md', 'C:x.md', 'AGENTS.md.', 'AGENTS.md ', 'CON', 'nul.md', 'x\u0000.md', 'x\n.md', 'OK.md', 'OK.md'] }, env)
    expect(config.instructionFileCandidates).toEqual(['OK.md'])
  })

  it('keeps names verbatim and in configured order (no lower-casing, no hidden priority)', () => {
    const config = resolveConfig({ maxBytes: 1, instructionFileCandidates: ['CLAUDE.md', 'agents.md'] }, env)
    expect(config.instructionFileCandidates).toEqual(['CLAUDE.md', 'agents.md'])
  })

  it('accepts names whose every portable interpretation stays in the directory', () => {
    for (const name of ['AGENTS.md', '..foo', '.hidden.md', 'a b.md']) expect(isSameDirectoryName(name)).toBe(true)
  })

  it('identity covers root, markers, budgets, candidates and policies but not the home', () => {
    const a = baselineIdentity(resolveConfig({ maxBytes: 10 }, env), '')
    const b = baselineIdentity(resolveConfig({ maxBytes: 10, dshHome: '/other' }, env), '')
    expect(a).toBe(b)
    expect(baselineIdentity(resolveConfig({ maxBytes: 11 }, env), '')).not.toBe(a)
    expect(baselineIdentity(resolveConfig({ maxBytes: 10 }, env), '..')).not.toBe(a)
    expect(baselineIdentity(resolveConfig({ maxBytes: 10, candidatePolicy: 'all' }, env), '')).not.toBe(a)
    expect(baselineIdentity(resolveConfig({ maxBytes: 10, instructionFileCandidates: ['AGENTS.md'] }, env), '')).not.toBe(a)
    expect(baselineIdentity(resolveConfig({ maxBytes: 10, maxFileShare: 1 }, env), '')).not.toBe(a)
  })

  it.each([0, -0.5, 1.5, Number.NaN])('rejects maxFileShare %s (a share of the budget: above 0, at most 1)', (maxFileShare) => {
    expect(Config.safeParse({ maxBytes: 1, maxFileShare }).success).toBe(false)
  })
})
