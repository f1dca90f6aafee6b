// The config file's multiRootWorkspace section: validated like every other section (unknown keys
// and wrong types are one-line usage errors naming the key), its defaults, and how it reaches the
// plugin together with the discovery settings of the workspaceContext section.
import { describe, expect, it } from 'vitest'
import { parseConfig } from '../src/config-file.ts'
import { multiRootConfig, multiRootEnabled } from '../src/multi-root-config.ts'

describe('multiRootWorkspace in the config file', () => {
  it('fills defaults and passes the shared discovery settings and the home to the plugin', () => {
    const config = parseConfig({ multiRootWorkspace: { maxBytes: 1000 }, workspaceContext: { instructionFileCandidates: ['RULES.md'], maxSourceBytes: 4096 } }, 'dsh.yaml')
    expect(config.multiRootWorkspace).toEqual({ enabled: true, maxBytes: 1000, maxDeliveredScopes: 512, maxPendingTouches: 64, maxPendingCalls: 128 })
    expect(multiRootConfig(config, '/home/me/.dsh')).toMatchObject({ maxBytes: 1000, dshHome: '/home/me/.dsh', instructionFileCandidates: ['RULES.md'], maxSourceBytes: 4096 })
    expect(multiRootEnabled(config)).toBe(true)
    expect(multiRootEnabled(parseConfig({ multiRootWorkspace: { enabled: false } }, 'dsh.yaml'))).toBe(false)
    expect(multiRootEnabled(parseConfig({}, 'dsh.yaml'))).toBe(true)
  })

  it('refuses unknown keys and wrong types with the key named (exit code 2)', () => {
    expect(() => parseConfig({ multiRootWorkspace: { roots: ['/x'] } }, 'dsh.yaml')).toThrow(expect.objectContaining({ exitCode: 2, message: 'dsh.yaml: multiRootWorkspace.roots: unknown key' }))
    expect(() => parseConfig({ multiRootWorkspace: { maxPendingTouches: 0 } }, 'dsh.yaml')).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringMatching(/^dsh\.yaml: multiRootWorkspace\.maxPendingTouches: /) }))
    expect(() => parseConfig({ multiRootWorkspace: { enabled: 'yes' } }, 'dsh.yaml')).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringMatching(/^dsh\.yaml: multiRootWorkspace\.enabled: /) }))
  })
})
