// Rule parsing and matching: prefixes, word prefixes, globs on paths, compound commands,
// substitution, and deny winning — examples plus fast-check properties over generated commands.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { userHome } from '@dsh/runtime'
import * as fc from 'fast-check'
import type { PermissionMode } from '@dsh/contracts'
import { allowingRules, decide, denyingRule, parseRule, readShell } from '../src/index.ts'

const cwd = '/work/repo'
const rules = (...texts: string[]) => texts.map((text) => parseRule(text, 'test'))
const bash = (command: string) => ({ tool: 'bash', args: { command }, cwd })
const allowed = (allow: string[], command: string) => allowingRules(rules(...allow), bash(command))?.map((rule) => rule.text)

describe('parseRule', () => {
  it('reads a bare tool and TOOL(PATTERN)', () => {
    expect(parseRule(' run_code ', 'x')).toEqual({ text: 'run_code', tool: 'run_code' })
    expect(parseRule('bash( npm test* )', 'x')).toEqual({ text: 'bash(npm test*)', tool: 'bash', pattern: 'npm test*' })
    expect(parseRule('write(**/.env)', 'x')).toEqual({ text: 'write(**/.env)', tool: 'write', pattern: '**/.env' })
  })
  it('reads Claude Code\'s spellings as dsh\'s rules: its tool names, and //absolute paths', () => {
    expect(parseRule('Bash(git push:*)', 'x')).toEqual({ text: 'bash(git push:*)', tool: 'bash', pattern: 'git push:*' })
    expect(parseRule('Bash', 'x')).toEqual({ text: 'bash', tool: 'bash' })
    expect(parseRule('MultiEdit(src/**)', 'x')).toEqual({ text: 'edit(src/**)', tool: 'edit', pattern: 'src/**' })
    expect(parseRule('Read(//etc/passwd)', 'x')).toEqual({ text: 'read(/etc/passwd)', tool: 'read', pattern: '/etc/passwd' })
    expect(parseRule('Task', 'x')).toEqual({ text: 'subagent', tool: 'subagent' })
    expect(parseRule('Agent', 'x')).toEqual({ text: 'subagent', tool: 'subagent' })
    // A command pattern keeps its slashes.
    expect(parseRule('Bash(//x)', 'x')).toEqual({ text: 'bash(//x)', tool: 'bash', pattern: '//x' })
    expect(denyingRule(rules('Bash(rm -rf *)'), { tool: 'bash', args: { command: 'ls && rm -rf build' }, cwd: '/w' })?.text).toBe('bash(rm -rf *)')
    expect(denyingRule(rules('Edit(**/.env)'), { tool: 'write', args: { file_path: '/w/a/.env', content: '' }, cwd: '/w' })?.text).toBe('edit(**/.env)')
    // `~/` is the user's home.
    expect(denyingRule(rules('Edit(~/.bashrc)'), { tool: 'edit', args: { file_path: join(userHome(), '.bashrc'), old_string: 'a', new_string: 'b' }, cwd: '/w' })?.text).toBe('edit(~/.bashrc)')
    expect(denyingRule(rules('Read(~/notes/**)'), { tool: 'read', args: { file_path: '/w/notes/a.md' }, cwd: '/w' })).toBeUndefined()
  })
  it('names the rule and where it came from in one line', () => {
    expect(() => parseRule('bash(npm test', '--allow')).toThrow('--allow: invalid permission rule "bash(npm test" (expected TOOL or TOOL(PATTERN), e.g. bash(npm test*))')
    expect(() => parseRule('bash()', 'config.yaml permissions.deny[0]')).toThrow('config.yaml permissions.deny[0]: empty pattern in permission rule "bash()" (write bash alone to match every call)')
    expect(() => parseRule('rm -rf', '--deny')).toThrow('--deny: invalid permission rule "rm -rf"')
  })
})

describe('bash rules', () => {
  it('match the whole simple command; * is any text, :* a word prefix', () => {
    expect(allowed(['bash(git status)'], 'git status')).toEqual(['bash(git status)'])
    expect(allowed(['bash(git status)'], '  git   status ')).toEqual(['bash(git status)'])
    expect(allowed(['bash(git status)'], 'git status --short')).toBeUndefined()
    expect(allowed(['bash(npm test*)'], 'npm test -- --watch=false')).toEqual(['bash(npm test*)'])
    expect(allowed(['bash(npm test*)'], 'npm testing')).toEqual(['bash(npm test*)'])
    expect(allowed(['bash(npm test:*)'], 'npm testing')).toBeUndefined()
    expect(allowed(['bash(npm test:*)'], 'npm test')).toEqual(['bash(npm test:*)'])
    expect(allowed(['bash(npm test:*)'], 'npm test a b')).toEqual(['bash(npm test:*)'])
    expect(allowed(['bash'], 'anything; at all')).toEqual(['bash'])
  })
  it('never let an allowed command carry another one', () => {
    for (const command of ['git status; rm -rf ~', 'git status && rm -rf ~', 'git status || rm -rf ~', 'git status | sh', 'git status & rm -rf ~', 'git status\nrm -rf ~', 'git status |& tee x']) {
      expect(allowed(['bash(git status)'], command), command).toBeUndefined()
    }
    expect(allowed(['bash(git status*)'], 'git status $(rm -rf ~)')).toBeUndefined()
    expect(allowed(['bash(git status*)'], 'git status `rm -rf ~`')).toBeUndefined()
    expect(allowed(['bash(cat*)'], 'cat <(rm -rf ~)')).toBeUndefined()
    expect(allowed(['bash(echo*)'], 'echo "$(rm -rf ~)"')).toBeUndefined()
  })
  // Audit: syntax the reader used to read differently from bash, so that a second command hid
  // inside what it took for a quote of an allowed one.
  it('never let a comment, an ANSI-C quote or a here-document hide a second command', () => {
    const hidden = {
      comment: "ls # it's here\nrm -rf ~",
      'comment after ;': "ls;# '\nrm -rf ~",
      'ANSI-C quote': "ls $'a\\'' ; rm -rf ~",
      'here-document': "cat <<EOF\ncat '\nEOF\nrm -rf ~\nls '",
      'unterminated quote': "ls '\nrm -rf ~",
    }
    for (const [what, command] of Object.entries(hidden)) expect(allowed(['bash(ls:*)', 'bash(cat:*)'], command), what).toBeUndefined()
    expect(readShell("ls # a'b; c\nrm -rf ~").commands).toEqual(['ls', 'rm -rf ~'])
    expect(readShell("echo $'it\\'s' ; rm -rf ~").commands).toEqual(["echo $'it\\'s'", 'rm -rf ~'])
    expect(readShell('echo a#b "#c" \\#d').commands).toEqual(['echo a#b "#c" \\#d'])
    expect(allowed(['bash(ls:*)'], 'ls -la # list')).toEqual(['bash(ls:*)'])
    expect(allowed(['bash(cat:*)'], 'cat <<< "x"')).toEqual(['bash(cat:*)'])
  })
  it('deny through wrappers, shells and quotes: bash -c, sh -c, eval, env, sudo, nohup, timeout, "rm", r\\m', () => {
    const deny = rules('bash(rm -rf*)')
    const spelled = ['bash -c "rm -rf x"', "sh -c 'ls; rm -rf x'", 'bash -lc "cd /; rm -rf x"', 'eval "rm -rf x"', 'eval rm -rf x', 'env FOO=1 rm -rf x', 'env -i rm -rf x', 'sudo rm -rf x', 'command rm -rf x', 'exec rm -rf x', 'nohup rm -rf x &', 'nice -n 5 rm -rf x', 'timeout 5s rm -rf x', 'xargs rm -rf < list', 'time rm -rf x', '"rm" -rf x', "r'm' \"-rf\" x", 'r\\m -rf x', '\\rm -rf x', 'FOO="a b" rm -rf x', 'bash -c "sh -c \'rm -rf x\'"']
    for (const command of spelled) expect(denyingRule(deny, bash(command))?.text, command).toBe('bash(rm -rf*)')
    for (const command of ['echo "rm -rf x"', 'git commit -m "rm -rf is gone"', 'bash script.sh rm -rf', "grep -r 'rm -rf' ."]) expect(denyingRule(deny, bash(command)), command).toBeUndefined()
  })
  it('allow a compound command when every part is allowed, quotes and redirections kept in their part', () => {
    expect(allowed(['bash(git status)', 'bash(npm test:*)'], 'git status && npm test -- x')).toEqual(['bash(git status)', 'bash(npm test:*)'])
    expect(allowed(['bash(echo*)'], 'echo "a; b && c" \'$(x)\'')).toEqual(['bash(echo*)'])
    expect(allowed(['bash(npm test*)'], 'npm test 2>&1')).toEqual(['bash(npm test*)'])
    expect(readShell('npm test &>log; ls').commands).toEqual(['npm test &>log', 'ls'])
  })
  it('deny when any part matches, inside substitutions and after assignments too', () => {
    const deny = rules('bash(rm -rf*)')
    for (const command of ['rm -rf build', 'ls; rm -rf ~', 'echo $(rm -rf /)', 'echo `rm -rf /`', 'FOO=1 rm -rf x', 'if true; then rm -rf x; fi', '(rm -rf x)']) {
      expect(denyingRule(deny, bash(command))?.text, command).toBe('bash(rm -rf*)')
    }
    expect(denyingRule(deny, bash('echo "rm -rf x"'))).toBeUndefined()
  })
})

const fileCall = (tool: string, file_path: string) => ({ tool, args: { file_path, content: '' }, cwd })

describe('path rules', () => {
  it('a write(…) or edit(…) rule covers both file-changing tools (audit: edit went around a write deny)', () => {
    expect(denyingRule(rules('write(**/.env)'), fileCall('edit', '.env'))?.text).toBe('write(**/.env)')
    expect(denyingRule(rules('edit(secrets/**)'), fileCall('write', 'secrets/key'))?.text).toBe('edit(secrets/**)')
    expect(allowingRules(rules('write(/data/**)'), fileCall('edit', '/data/a'))?.map((r) => r.text)).toEqual(['write(/data/**)'])
    expect(denyingRule(rules('write(**/.env)'), fileCall('read', '.env'))).toBeUndefined()
    expect(decide({ mode: 'full-auto', allow: [], deny: rules('write(**/.env)'), session: [], sandboxAvailable: true, interactive: false, call: fileCall('edit', 'apps/.env') })).toMatchObject({ verdict: 'deny', by: 'rule', rule: 'write(**/.env)' })
  })
  it('glob the path relative to the working directory, dot files included', () => {
    const deny = rules('write(**/.env)')
    expect(denyingRule(deny, fileCall('write', '.env'))?.text).toBe('write(**/.env)')
    expect(denyingRule(deny, fileCall('write', 'apps/web/.env'))?.text).toBe('write(**/.env)')
    expect(denyingRule(deny, fileCall('write', '/elsewhere/x/.env'))?.text).toBe('write(**/.env)')
    expect(denyingRule(deny, fileCall('write', 'apps/.env.example'))).toBeUndefined()
    expect(allowingRules(rules('edit(src/**)'), fileCall('edit', './src/a/b.ts'))?.map((r) => r.text)).toEqual(['edit(src/**)'])
    expect(allowingRules(rules('write(/tmp/**)'), fileCall('write', '/tmp/x/y'))?.map((r) => r.text)).toEqual(['write(/tmp/**)'])
  })
})

describe('properties', () => {
  const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/)
  const simple = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(' '))
  const operator = fc.constantFrom('; ', ' && ', ' || ', ' | ', ' & ', '\n')
  const ruleText = fc.oneof(simple.map((s) => `bash(${s})`), simple.map((s) => `bash(${s}*)`), simple.map((s) => `bash(${s}:*)`), fc.constant('bash'))

  it('deny wins: whenever a deny rule matches, the call is denied by that rule, whatever the allow rules and the mode', () => {
    fc.assert(
      fc.property(fc.array(ruleText, { maxLength: 4 }), fc.array(ruleText, { minLength: 1, maxLength: 3 }), fc.array(simple, { minLength: 1, maxLength: 3 }), operator, fc.constantFrom<PermissionMode>('ask', 'full-auto', 'danger-full-access'), fc.boolean(), (allow, deny, parts, op, mode, interactive) => {
        const command = parts.join(op)
        const denied = denyingRule(rules(...deny), bash(command))
        const decision = decide({ mode, allow: rules(...allow), deny: rules(...deny), session: rules(...allow), sandboxAvailable: true, interactive, call: bash(command) })
        if (denied !== undefined) expect(decision).toMatchObject({ verdict: 'deny', by: 'rule', rule: denied.text })
        else expect(decision.verdict === 'deny' && decision.by === 'rule').toBe(false)
      }),
    )
  })

  it('an exact allow rule for one command never allows it chained with a command no rule names', () => {
    fc.assert(
      fc.property(simple, simple, operator, (allowedCommand, other, op) => {
        fc.pre(other !== allowedCommand)
        expect(allowed([`bash(${allowedCommand})`], `${allowedCommand}${op}${other}`)).toBeUndefined()
        expect(allowed([`bash(${allowedCommand})`], `${other}${op}${allowedCommand}`)).toBeUndefined()
        expect(allowed([`bash(${allowedCommand})`], allowedCommand)).toEqual([`bash(${allowedCommand})`])
      }),
    )
  })

  it('a deny rule for a command matches it wherever it stands in a chain or a substitution', () => {
    fc.assert(
      fc.property(simple, fc.array(simple, { maxLength: 3 }), operator, fc.boolean(), (target, others, op, substitute) => {
        const inner = substitute ? `echo $(${target})` : target
        const command = [...others, inner].join(op)
        expect(denyingRule(rules(`bash(${target})`), bash(command))?.text).toBe(`bash(${target})`)
      }),
    )
  })

  it('a deny rule for a command matches it however it is wrapped, quoted or handed to a shell', () => {
    const prefix = fc.constantFrom('env A=1 ', 'sudo -u root ', 'timeout -s KILL 10 ', 'nohup ', 'nice -n 5 ', 'command ', 'B=1 ')
    const outer = fc.constantFrom(
      (c: string) => c,
      (c: string) => `bash -c '${c}'`,
      (c: string) => `sh -lc "${c}"`,
      (c: string) => `eval "${c}"`,
      (c: string) => `ls; "${c.split(' ')[0] ?? ''}" ${c.split(' ').slice(1).join(' ')}`,
    )
    fc.assert(
      fc.property(simple, fc.array(prefix, { maxLength: 3 }), outer, (target, prefixes, wrap) => {
        const command = wrap(prefixes.join('') + target)
        expect(denyingRule(rules(`bash(${target})`), bash(command))?.text, command).toBe(`bash(${target})`)
      }),
    )
  })

  it('more allow rules never turn an allowed call into an ask or a denial', () => {
    fc.assert(
      fc.property(fc.array(ruleText, { maxLength: 3 }), fc.array(ruleText, { maxLength: 3 }), fc.array(simple, { minLength: 1, maxLength: 3 }), operator, (allow, extra, parts, op) => {
        const call = bash(parts.join(op))
        const before = decide({ mode: 'ask', allow: rules(...allow), deny: [], session: [], sandboxAvailable: true, interactive: true, call })
        const after = decide({ mode: 'ask', allow: rules(...allow, ...extra), deny: [], session: [], sandboxAvailable: true, interactive: true, call })
        if (before.verdict === 'allow') expect(after.verdict).toBe('allow')
      }),
    )
  })
})
