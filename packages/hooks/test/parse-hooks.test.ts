// Reading hook sections: Claude Code's shape, one line per bad entry naming file, event and entry,
// the other entries still loaded; matchers against dsh's and Claude Code's tool names.
import { describe, expect, it } from 'vitest'
import { claudeToolName, matchesTool, parseHooks, type HookSource } from '../src/index.ts'

const source: HookSource = { kind: 'config', file: '/etc/dsh.yaml', trusted: true }

describe('parseHooks', () => {
  it('reads Claude Code shape with the default timeout and seconds converted', () => {
    const parsed = parseHooks({ PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'lint.sh', timeout: 5 }, { type: 'command', command: 'log.sh' }] }], Stop: [{ hooks: [{ type: 'command', command: 'check.sh' }] }] }, source)
    expect(parsed.problems).toEqual([])
    expect(parsed.entries.map((entry) => [entry.event, entry.matcher, entry.command, entry.timeoutMs, entry.where])).toEqual([
      ['PreToolUse', 'Edit|Write', 'lint.sh', 5000, 'PreToolUse[0].hooks[0]'],
      ['PreToolUse', 'Edit|Write', 'log.sh', 60_000, 'PreToolUse[0].hooks[1]'],
      ['Stop', '', 'check.sh', 60_000, 'Stop[0].hooks[0]'],
    ])
  })

  it('reports each bad entry in one line and keeps the good ones', () => {
    const parsed = parseHooks(
      {
        BeforeTool: [],
        PreToolUse: [{ matcher: '[', hooks: [{ type: 'command', command: 'x' }] }, { matcher: 'Bash', hooks: [{ type: 'command' }, { type: 'http', url: 'http://x' }, { type: 'command', command: 'ok.sh' }] }],
        maxStopContinues: -1,
      },
      source,
    )
    expect(parsed.entries.map((entry) => entry.command)).toEqual(['ok.sh'])
    expect(parsed.problems).toEqual([
      '/etc/dsh.yaml: hooks.BeforeTool: unknown event (known: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, Stop, SubagentStop, PreCompact, SessionEnd, Notification, InstructionsLoaded, RootChanged)',
      expect.stringMatching(/^\/etc\/dsh\.yaml: hooks\.PreToolUse\[0\]: matcher "\[" is not a valid regular expression \(.+\)$/),
      '/etc/dsh.yaml: hooks.PreToolUse[1].hooks[0]: missing command',
      '/etc/dsh.yaml: hooks.PreToolUse[1].hooks[1]: unsupported hook type "http" (dsh runs type "command" only)',
      '/etc/dsh.yaml: hooks.maxStopContinues: expected a whole number from 0 to 100',
    ])
  })
})

describe('if, once and shell', () => {
  it('reads if as a permission rule in dsh\'s tool names, once as a flag; a bad one is a line and that hook does not load', () => {
    const parsed = parseHooks(
      {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', if: 'Bash(git push *)', once: true, shell: 'bash', statusMessage: 'checking' }, { type: 'command', command: 'bad-if.sh', if: 'Bash(git push' }, { type: 'command', command: 'ps.sh', shell: 'powershell' }, { type: 'command', command: 'once.sh', once: 'yes' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'stop.sh', if: 'Bash(x)' }] }],
      },
      source,
    )
    expect(parsed.entries.map((entry) => [entry.command, entry.condition?.text, entry.condition?.rule.text, entry.once])).toEqual([['guard.sh', 'Bash(git push *)', 'bash(git push *)', true]])
    expect(parsed.problems).toEqual([
      '/etc/dsh.yaml: hooks.PreToolUse[0].hooks[1]: if: invalid permission rule "Bash(git push" (expected TOOL or TOOL(PATTERN), e.g. bash(npm test*)); this hook does not run',
      '/etc/dsh.yaml: hooks.PreToolUse[0].hooks[2]: shell "powershell" is not supported (dsh runs hook commands with bash)',
      '/etc/dsh.yaml: hooks.PreToolUse[0].hooks[3]: once: expected true or false',
      '/etc/dsh.yaml: hooks.Stop[0].hooks[0]: if: applies to the tool events only (PreToolUse, PostToolUse, PostToolUseFailure); this hook does not run',
    ])
  })
})

describe('matchers', () => {
  it('match the whole name, dsh\'s or Claude Code\'s', () => {
    const [bash] = parseHooks({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x' }] }] }, source).entries
    expect(matchesTool(bash?.pattern, 'bash')).toBe(true)
    expect(matchesTool(bash?.pattern, 'bash_output')).toBe(false)
    const [edits] = parseHooks({ PreToolUse: [{ matcher: 'Edit|MultiEdit|Write', hooks: [{ type: 'command', command: 'x' }] }] }, source).entries
    expect(['edit', 'write', 'read'].map((name) => matchesTool(edits?.pattern, name))).toEqual([true, true, false])
    const [mcp] = parseHooks({ PreToolUse: [{ matcher: 'mcp__github__.*', hooks: [{ type: 'command', command: 'x' }] }] }, source).entries
    expect(matchesTool(mcp?.pattern, 'mcp__github__create_issue')).toBe(true)
    expect(matchesTool(undefined, 'anything')).toBe(true)
    expect(claudeToolName('grep')).toBe('Grep')
    expect(claudeToolName('subagent')).toBe('Agent')
    const [agent] = parseHooks({ PreToolUse: [{ matcher: 'Agent', hooks: [{ type: 'command', command: 'x' }] }] }, source).entries
    const [task] = parseHooks({ PreToolUse: [{ matcher: 'Task', hooks: [{ type: 'command', command: 'x' }] }] }, source).entries
    expect([matchesTool(agent?.pattern, 'subagent'), matchesTool(task?.pattern, 'subagent'), matchesTool(task?.pattern, 'bash')]).toEqual([true, true, false])
    expect(claudeToolName('mcp__x__y')).toBe('mcp__x__y')
    // Claude Code's former LS tool listed what glob lists.
    const [ls] = parseHooks({ PreToolUse: [{ matcher: 'LS', hooks: [{ type: 'command', command: 'x' }] }] }, source).entries
    expect(['glob', 'grep'].map((name) => matchesTool(ls?.pattern, name))).toEqual([true, false])
  })
})
