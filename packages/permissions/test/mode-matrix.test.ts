// The mode × tool table (README "Modes"), for front ends that can ask and for dsh run, with and
// without a working sandbox: every cell is one decision of the real policy.
import { describe, expect, it } from 'vitest'
import type { PermissionMode } from '@dsh/contracts'
import { decide, permissionModes } from '../src/index.ts'

const cwd = '/work/repo'
const calls = {
  bash: { tool: 'bash', args: { command: 'npm test' } },
  run_code: { tool: 'run_code', args: { code: 'return 1' } },
  'write inside': { tool: 'write', args: { file_path: 'src/a.ts', content: '' } },
  'edit outside': { tool: 'edit', args: { file_path: '/work/other/a.ts', old_string: 'a', new_string: 'b' } },
  read: { tool: 'read', args: { file_path: '/etc/hosts' } },
  subagent: { tool: 'subagent', args: { prompt: 'x' } },
} as const
type CallName = keyof typeof calls
const callNames: readonly CallName[] = ['bash', 'run_code', 'write inside', 'edit outside', 'read', 'subagent']

/** Expected verdicts, in the order of `calls`: A allow, Q ask, D deny. */
const table: Record<PermissionMode, { interactive: string; run: string; noSandboxInteractive: string; noSandboxRun: string }> = {
  'read-only': { interactive: 'AADDAA', run: 'AADDAA', noSandboxInteractive: 'DDDDAA', noSandboxRun: 'DDDDAA' },
  ask: { interactive: 'QQAQAA', run: 'DDADAA', noSandboxInteractive: 'QQAQAA', noSandboxRun: 'DDADAA' },
  'auto-edit': { interactive: 'QQAAAA', run: 'DDAAAA', noSandboxInteractive: 'QQAAAA', noSandboxRun: 'DDAAAA' },
  'full-auto': { interactive: 'AAAAAA', run: 'AAAAAA', noSandboxInteractive: 'QQAAAA', noSandboxRun: 'DDAAAA' },
  'danger-full-access': { interactive: 'AAAAAA', run: 'AAAAAA', noSandboxInteractive: 'AAAAAA', noSandboxRun: 'AAAAAA' },
}

const letter = { allow: 'A', ask: 'Q', deny: 'D' } as const

function row(mode: PermissionMode, interactive: boolean, sandboxAvailable: boolean): string {
  return callNames
    .map((name) => letter[decide({ mode, allow: [], deny: [], session: [], sandboxAvailable, interactive, call: { ...calls[name], cwd } }).verdict])
    .join('')
}

describe('mode × tool', () => {
  it('covers every mode', () => {
    expect(Object.keys(table).toSorted()).toEqual(permissionModes.toSorted())
  })
  for (const mode of permissionModes) {
    it(`${mode}: ${Object.keys(calls).join(', ')}`, () => {
      expect({
        interactive: row(mode, true, true),
        run: row(mode, false, true),
        noSandboxInteractive: row(mode, true, false),
        noSandboxRun: row(mode, false, false),
      }).toEqual(table[mode])
    })
  }
  it('an allow rule turns an ask into allow, but never unsandboxes a shell call', () => {
    const allow = [{ text: 'bash(npm test*)', tool: 'bash', pattern: 'npm test*' }]
    const base = { mode: 'ask' as const, allow, deny: [], session: [], interactive: false, call: { ...calls.bash, cwd } }
    expect(decide({ ...base, sandboxAvailable: true })).toEqual({ verdict: 'allow', by: 'rule', rule: 'bash(npm test*)' })
    expect(decide({ ...base, sandboxAvailable: false }).verdict).toBe('deny')
  })
  it('read-only denies writes even when an allow rule names them', () => {
    const allow = [{ text: 'write', tool: 'write' }]
    expect(decide({ mode: 'read-only', allow, deny: [], session: [], sandboxAvailable: true, interactive: true, call: { ...calls['write inside'], cwd } }).verdict).toBe('deny')
  })
  // Audit: with $DSH_HOME inside the working directory (dsh chat in the home directory), a write
  // of settings.yaml ran without asking and gave the model rules that allowed it everything.
  it('a write into dsh\'s own state asks in every mode but danger-full-access, whatever the rules; dsh run denies it', () => {
    const home = '/work/repo/.dsh'
    const write = { tool: 'write', args: { file_path: '.dsh/settings.yaml', content: 'permissions: { allow: [bash] }' }, cwd }
    const edit = { tool: 'edit', args: { file_path: `${home}/sessions/s.jsonl`, old_string: 'a', new_string: 'b' }, cwd }
    const allow = [{ text: 'write', tool: 'write' }]
    const verdict = (mode: PermissionMode, interactive: boolean, call: typeof write | typeof edit) =>
      decide({ mode, allow, deny: [], session: allow, sandboxAvailable: true, interactive, protectedDirs: [home], call })
    for (const mode of ['ask', 'auto-edit', 'full-auto'] as const) {
      expect(verdict(mode, true, write)).toEqual({ verdict: 'ask', reason: "write would change dsh's own settings or sessions (/work/repo/.dsh)" })
      expect(verdict(mode, true, edit).verdict).toBe('ask')
      expect(verdict(mode, false, write)).toMatchObject({ verdict: 'deny', by: 'mode' })
    }
    expect(verdict('read-only', true, write)).toMatchObject({ verdict: 'deny', by: 'mode' })
    expect(verdict('danger-full-access', false, write)).toEqual({ verdict: 'allow', by: 'mode' })
    expect(decide({ mode: 'full-auto', allow: [], deny: [], session: [], sandboxAvailable: true, interactive: false, protectedDirs: [home], call: { ...write, args: { file_path: '.dshx/a', content: '' } } }).verdict).toBe('allow')
  })
  it('a write outside every root is denied at once where it would ask (no answer could let it through); where the mode allows it, the tool refuses it', () => {
    const call = { tool: 'write', args: { file_path: '/elsewhere/a.txt', content: '' }, cwd }
    const roots = ['/work/repo', '/tmp']
    const decision = (mode: PermissionMode, interactive: boolean) => decide({ mode, allow: [], deny: [], session: [], sandboxAvailable: true, interactive, outsideRoots: roots, call })
    for (const interactive of [true, false]) expect(decision('ask', interactive)).toMatchObject({ verdict: 'deny', by: 'mode', text: { reason: '/elsewhere/a.txt is outside every writable root of this session (/work/repo, /tmp), so no answer could let the write through' } })
    expect(decision('full-auto', false).verdict).toBe('allow')
    expect(decision('read-only', true).verdict).toBe('deny')
  })
  it('a write into dsh\'s own state outside every root is not asked about: it is denied at once (ask) or refused by the tool', () => {
    const call = { tool: 'write', args: { file_path: '/home/me/.dsh/settings.yaml', content: '' }, cwd }
    const input = { allow: [], deny: [], session: [], sandboxAvailable: true, interactive: true, protectedDirs: ['/home/me/.dsh'], outsideRoots: ['/work/repo'], call }
    expect(decide({ ...input, mode: 'ask' })).toMatchObject({ verdict: 'deny', by: 'mode', text: { reason: '/home/me/.dsh/settings.yaml is outside every writable root of this session (/work/repo), so no answer could let the write through' } })
    expect(decide({ ...input, mode: 'full-auto' }).verdict).toBe('allow')
  })
})
