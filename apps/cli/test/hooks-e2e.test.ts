// User hooks end to end: real shell scripts run by the built binary around the scripted model.
// Blocking by exit 2 and by JSON, the stdin of PostToolUse, UserPromptSubmit context, Stop
// continuation and its cap, a PreToolUse hook that times out or cannot start, untrusted project
// hooks and trust, a Claude Code hook file used unchanged, an MCP tool's hook, a hook exiting 1,
// and bad hook input.
import { afterEach, describe, expect, it } from 'vitest'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ModelScript } from '@dsh/llm-scripted'
import { faultServer } from './mcp-servers.ts'
import { readRequests, runDsh, writeScript, type RequestBody } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function workspace(files: Record<string, string> = {}) {
  tree = await tempTree({ 'repo/notes.txt': 'alpha\nbeta\n', 'scripts/': null, ...Object.fromEntries(Object.entries(files).map(([path, text]) => [`repo/${path}`, text])) })
  return { repo: tree.path('repo'), home: tree.path('home'), log: tree.path('requests.jsonl'), config: tree.path('dsh.yaml') }
}

type Workspace = Awaited<ReturnType<typeof workspace>>

/** Writes the config file with a `hooks` section (JSON is YAML). */
function configHooks(w: Workspace, hooks: object): void {
  writeFileSync(w.config, JSON.stringify({ hooks }))
}

const command = (text: string, timeout?: number) => ({ type: 'command', command: text, ...(timeout === undefined ? {} : { timeout }) })

function runWith(w: Workspace, responses: ModelScript['responses'], prompt = 'go', extra: string[] = []) {
  const script = writeScript(tree.path('scripts'), 'model.json', { responses })
  return runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--config', w.config, '--model', `scripted:${script}`, '--request-log', w.log, ...extra, prompt], { cwd: tree.root })
}

const toolText = (requests: readonly RequestBody[]): string[] => requests.flatMap((request) => request.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '')).filter((text, index, all) => all.indexOf(text) === index)
const userTexts = (request: RequestBody | undefined): string[] => (request?.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content ?? '')

const bashCall = (cmd: string) => ({ toolCalls: [{ name: 'bash', arguments: { command: cmd } }] })

describe('PreToolUse hooks', { timeout: 120_000 }, () => {
  it('exit 2 blocks the call with stderr as the reason; the stdin carries Claude Code fields', async () => {
    const w = await workspace()
    configHooks(w, { PreToolUse: [{ matcher: 'Bash', hooks: [command(`cat > ${tree.path('stdin.json')}; echo 'no shell today' >&2; exit 2`)] }] })
    const result = await runWith(w, [bashCall('echo hi > made.txt'), { text: 'ok' }])
    expect(result.code).toBe(0)
    expect(toolText(readRequests(w.log))).toEqual(['The bash call was denied: a PreToolUse hook blocked it: no shell today. Do not retry it unchanged; choose another approach or ask the user.'])
    expect(existsSync(tree.path('repo/made.txt'))).toBe(false)
    const stdin: unknown = JSON.parse(readFileSync(tree.path('stdin.json'), 'utf8'))
    expect(stdin).toMatchObject({ hook_event_name: 'PreToolUse', cwd: w.repo, permission_mode: 'full-auto', tool_name: 'Bash', dsh_tool_name: 'bash', tool_input: { command: 'echo hi > made.txt' }, tool_use_id: 'call_t1s1_1', transcript_path: expect.stringMatching(/\/home\/sessions\/[^/]+\.jsonl$/) })
  })

  // A hook file written for Claude Code: `if` narrows a guard to the commands it names (it used to
  // be ignored, so this guard blocked every bash call), the command is bash (`[[` under dash exits
  // 127, which blocked every call as a hook that cannot start), and `once` runs a hook only once.
  it('if narrows a hook to the calls its rule matches, commands run in bash, once runs once per session', async () => {
    const w = await workspace()
    const log = tree.path('once.log')
    configHooks(w, {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ ...command("echo 'no pushing from the agent' >&2; exit 2"), if: 'Bash(git push *)' }] },
        { matcher: 'Bash', hooks: [{ ...command('cmd=$(jq -r .tool_input.command); if [[ "$cmd" == rm\\ * ]]; then echo "bash-only guard: no rm" >&2; exit 2; fi'), statusMessage: 'checking…' }] },
        { matcher: 'Bash', hooks: [{ ...command(`echo ran >> ${log}`), once: true }] },
        { matcher: 'Write', hooks: [{ ...command("echo 'not the env file' >&2; exit 2"), if: 'Write(**/.env)' }] },
      ],
    })
    const result = await runWith(w, [bashCall('echo one > one.txt'), bashCall('ls && git push origin main'), bashCall('rm notes.txt'), { toolCalls: [{ name: 'write', arguments: { file_path: 'ok.txt', content: 'x' } }, { name: 'write', arguments: { file_path: 'app/.env', content: 'K=1' } }] }, { text: 'ok' }])
    expect(result.code).toBe(0)
    expect(result.stderr).not.toContain('warning')
    const texts = toolText(readRequests(w.log))
    expect(texts[0]).toMatch(/\[Exit code: 0\]$/)
    expect(texts[1]).toBe('The bash call was denied: a PreToolUse hook blocked it: no pushing from the agent. Do not retry it unchanged; choose another approach or ask the user.')
    expect(texts[2]).toBe('The bash call was denied: a PreToolUse hook blocked it: bash-only guard: no rm. Do not retry it unchanged; choose another approach or ask the user.')
    expect(texts[3]).toMatch(/^Created ok\.txt/)
    expect(texts[4]).toBe('The write call was denied: a PreToolUse hook blocked it: not the env file. Do not retry it unchanged; choose another approach or ask the user.')
    expect(existsSync(tree.path('repo/one.txt'))).toBe(true)
    expect(existsSync(tree.path('repo/notes.txt'))).toBe(true)
    expect(readFileSync(log, 'utf8')).toBe('ran\n')
    const listed = await runDsh(['--dsh-home', w.home, 'hooks', 'list', '--cwd', w.repo, '--config', w.config], { cwd: tree.root })
    expect(listed.stdout).toContain("PreToolUse  Bash  if Bash(git push *)  echo 'no pushing from the agent' >&2; exit 2")
    expect(listed.stdout).toContain(`PreToolUse  Bash  once  echo ran >> ${log}`)
  })

  it('async hooks run in the background: they decide nothing, what they say reaches a later step, and dsh run lets them finish', async () => {
    const w = await workspace()
    const context = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'the build cache was refreshed' } })
    configHooks(w, {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ ...command("echo 'too late to block' >&2; exit 2"), async: true }] }],
      PostToolUse: [{ matcher: 'Bash', hooks: [{ ...command(`echo '${context}'`), async: true }] }],
      Stop: [{ hooks: [{ ...command(`sleep 0.3; echo notified > ${tree.path('stop.txt')}`), async: true }] }],
    })
    // The second model call holds its answer for a while: the background hooks of the first step end meanwhile.
    const result = await runWith(w, [bashCall('echo ran > ran.txt'), { toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }], delayMs: 3000 }, { text: 'ok' }])
    expect(result.code).toBe(0)
    expect(existsSync(tree.path('repo/ran.txt'))).toBe(true)
    const last = readRequests(w.log).at(-1)
    expect(userTexts(last)).toContain('PostToolUse hook (run in the background): the build cache was refreshed')
    expect(userTexts(last)).toContain('PreToolUse hook (run in the background): too late to block')
    expect(readFileSync(tree.path('stop.txt'), 'utf8')).toBe('notified\n')
    const listed = await runDsh(['--dsh-home', w.home, 'hooks', 'list', '--cwd', w.repo, '--config', w.config], { cwd: tree.root })
    expect(listed.stdout).toContain('Stop  *  async  sleep 0.3')
  })

  it('a JSON deny blocks with its reason; a JSON allow never overrides a deny rule (the hook does not even run)', async () => {
    const w = await workspace()
    const deny = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'read files with the read tool' } })
    const allow = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } })
    configHooks(w, { PreToolUse: [{ matcher: 'Bash', hooks: [command(`case "$(cat)" in *cat*) echo '${deny}' ;; *) touch ${tree.path('allow-ran')}; echo '${allow}' ;; esac`)] }] })
    await runWith(w, [bashCall('cat notes.txt'), bashCall('git push origin main'), { text: 'ok' }], 'go', ['--deny', 'bash(git push*)'])
    const texts = toolText(readRequests(w.log))
    expect(texts[0]).toBe('The bash call was denied: a PreToolUse hook blocked it: read files with the read tool. Do not retry it unchanged; choose another approach or ask the user.')
    expect(texts[1]).toMatch(/^The bash call was denied: .*bash\(git push\*\)/)
    expect(existsSync(tree.path('allow-ran'))).toBe(false)
  })

  it('a hook that times out or cannot start blocks the call, saying so', async () => {
    const w = await workspace()
    configHooks(w, { PreToolUse: [{ matcher: 'bash', hooks: [command('sleep 1000', 0.5)] }, { matcher: 'read', hooks: [command(tree.path('missing-hook.sh'))] }] })
    await runWith(w, [bashCall('echo hi > made.txt'), { toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'ok' }])
    const texts = toolText(readRequests(w.log))
    expect(texts[0]).toBe(`The bash call was denied: a PreToolUse hook blocked it: the PreToolUse hook "sleep 1000" (${w.config}: PreToolUse[0].hooks[0]) did not answer within 0.5 s, and a guard that cannot answer blocks the call. Do not retry it unchanged; choose another approach or ask the user.`)
    expect(texts[1]).toMatch(/^The read call was denied: a PreToolUse hook blocked it: the PreToolUse hook ".*missing-hook\.sh" \(.*PreToolUse\[1\]\.hooks\[0\]\) could not run \(exit 127\): .*missing-hook\.sh: (?:not found|No such file or directory), and a guard that cannot run blocks the call\./)
    expect(existsSync(tree.path('repo/made.txt'))).toBe(false)
  })

  it('invalid JSON output is a warning and the call goes on; bad entries are one line each and the rest loads', async () => {
    const w = await workspace()
    configHooks(w, { PreToolUse: [{ matcher: '(', hooks: [command('exit 2')] }, { matcher: 'Bash', hooks: [command('echo "{not json"'), { type: 'command' }] }], Nope: [] })
    const result = await runWith(w, [bashCall('echo hi > made.txt'), { text: 'ok' }])
    expect(result.code).toBe(0)
    expect(readFileSync(tree.path('repo/made.txt'), 'utf8')).toBe('hi\n')
    expect(result.stderr).toContain(`warning: ${w.config}: hooks.PreToolUse[0]: matcher "(" is not a valid regular expression`)
    expect(result.stderr).toContain(`warning: ${w.config}: hooks.PreToolUse[1].hooks[1]: missing command`)
    expect(result.stderr).toContain(`warning: ${w.config}: hooks.Nope: unknown event`)
    expect(result.stderr).toContain('its output starts with { but is not JSON')
  })
})

describe('MCP tools and other exit codes', { timeout: 180_000 }, () => {
  it('an MCP tool is matched by its mcp__server__tool name; a hook exiting 1 is a one-line warning and the call runs', async () => {
    const w = await workspace()
    const hook = `cat > ${tree.path('mcp-stdin.json')}; echo 'just a note' >&2; exit 1`
    configHooks(w, { PreToolUse: [{ matcher: 'mcp__ok__.*', hooks: [command(hook)] }] })
    const servers = tree.path('servers.json')
    writeFileSync(servers, JSON.stringify({ mcpServers: { ok: { command: process.execPath, args: [faultServer] } } }))
    const result = await runWith(w, [{ toolCalls: [{ name: 'mcp__ok__ok', arguments: {} }] }, { text: 'fine' }], 'go', ['--mcp-config', servers])
    expect(result.code).toBe(0)
    expect(toolText(readRequests(w.log))).toEqual(['ok'])
    // The hook's label is its command, cut at 80 characters (temporary paths differ in length).
    expect(result.stderr).toMatch(/^warning: the PreToolUse hook "cat > .+" \(.+: PreToolUse\[0\]\.hooks\[0\]\) exited with 1: just a note$/m)
    expect(JSON.parse(readFileSync(tree.path('mcp-stdin.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'mcp__ok__ok', dsh_tool_name: 'mcp__ok__ok', tool_input: {} })
  })
})

describe('PostToolUse, UserPromptSubmit and Stop hooks', { timeout: 120_000 }, () => {
  it('PostToolUse gets the tool input (its file path absolute, as Claude Code gives it) and response on stdin; its additionalContext reaches the model', async () => {
    const w = await workspace()
    const context = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'notes.txt is generated; do not edit it' } })
    configHooks(w, { PostToolUse: [{ matcher: 'Read|Write', hooks: [command(`cat > ${tree.path('post.json')}; echo '${context}'`)] }] })
    await runWith(w, [{ toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'ok' }])
    const stdin: unknown = JSON.parse(readFileSync(tree.path('post.json'), 'utf8'))
    expect(stdin).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: join(w.repo, 'notes.txt') }, tool_response: { content: expect.stringContaining('alpha') } })
    expect(userTexts(readRequests(w.log)[1])).toContain('PostToolUse hook context for the read call (call_t1s1_1): notes.txt is generated; do not edit it')
  })

  it('UserPromptSubmit: plain stdout joins the context; exit 2 blocks the turn before the model is called', async () => {
    const w = await workspace()
    configHooks(w, { UserPromptSubmit: [{ hooks: [command(`grep -q forbidden && { echo 'prompts about that are blocked' >&2; exit 2; }; echo 'The build uses pnpm.'`)] }] })
    await runWith(w, [{ text: 'ok' }], 'how do I build?')
    expect(userTexts(readRequests(w.log)[0])).toEqual(expect.arrayContaining(['how do I build?', 'Hook context: The build uses pnpm.']))
    writeFileSync(w.log, '')
    const blocked = await runWith(w, [{ text: 'never' }], 'something forbidden')
    expect(blocked.code).toBe(1)
    expect(blocked.stderr).toContain('a UserPromptSubmit hook blocked the prompt: prompts about that are blocked')
    expect(readFileSync(w.log, 'utf8')).toBe('')
  })

  it('Stop: exit 2 keeps the turn going with the reason, stop_hook_active tells a later run, and maxStopContinues caps it', async () => {
    const w = await workspace()
    configHooks(w, { maxStopContinues: 2, Stop: [{ hooks: [command(`cat >> ${tree.path('stop-inputs.jsonl')}; echo 'run the tests first' >&2; exit 2`)] }] })
    const result = await runWith(w, [{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'four' }])
    expect(result).toMatchObject({ code: 0, stdout: 'three\n' })
    const requests = readRequests(w.log)
    expect(requests).toHaveLength(3)
    expect(userTexts(requests[2]).filter((text) => text === 'Stop hook feedback (the turn goes on): run the tests first')).toHaveLength(2)
    const inputs = readFileSync(tree.path('stop-inputs.jsonl'), 'utf8').trim().split('\n').map((line): unknown => JSON.parse(line))
    expect(inputs).toEqual([expect.objectContaining({ hook_event_name: 'Stop', stop_hook_active: false }), expect.objectContaining({ stop_hook_active: true })])
    expect(result.stderr).toContain('Stop hooks kept the turn going 2 times (hooks.maxStopContinues: 2); the turn ends now')
  })
})

describe('SessionStart and SessionEnd hooks', { timeout: 120_000 }, () => {
  it('SessionStart stdout joins the first request; SessionEnd runs before dsh run exits, after the stream-json result', async () => {
    const w = await workspace()
    configHooks(w, { SessionStart: [{ hooks: [command("echo 'Today is release day.'")] }], SessionEnd: [{ hooks: [command(`cat > ${tree.path('end.json')}`)] }] })
    const result = await runWith(w, [{ text: 'ok' }], 'go', ['--output-format', 'stream-json'])
    expect(result.code).toBe(0)
    expect(userTexts(readRequests(w.log)[0])).toContain('Hook context: Today is release day.')
    expect(JSON.parse(readFileSync(tree.path('end.json'), 'utf8'))).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'other', cwd: w.repo })
    const last: unknown = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}')
    expect(last).toMatchObject({ type: 'result', is_error: false })
  })

  it('the chat runs SessionEnd for each session it leaves: clear on /new, prompt_input_exit when it ends', async () => {
    const w = await workspace()
    configHooks(w, { SessionEnd: [{ hooks: [command(`jq -c '{session_id, reason}' >> ${tree.path('ends.jsonl')}`)] }] })
    const script = writeScript(tree.path('scripts'), 'chat.json', { responses: [{ text: 'first answer' }, { text: 'second answer' }] })
    const result = await runDsh(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--config', w.config, '--model', `scripted:${script}`], { cwd: tree.root, input: 'one\n/new\ntwo\n' })
    expect(result.code).toBe(0)
    const sessions = [...result.stderr.matchAll(/^session: (\S+)$/gm)].map((match) => match[1])
    expect(sessions).toHaveLength(2)
    const ends = readFileSync(tree.path('ends.jsonl'), 'utf8').trim().split('\n').map((line): unknown => JSON.parse(line))
    expect(ends).toEqual([
      { session_id: sessions[0], reason: 'clear' },
      { session_id: sessions[1], reason: 'prompt_input_exit' },
    ])
  })
})

describe('project hooks and Claude Code hook files', { timeout: 240_000 }, () => {
  const blockRm = [
    '#!/bin/bash',
    '# A Claude Code PreToolUse hook: refuse rm -rf.',
    "COMMAND=$(jq -r '.tool_input.command')",
    'if echo "$COMMAND" | grep -q "rm -rf"; then',
    "  jq -n '{hookSpecificOutput: {hookEventName: \"PreToolUse\", permissionDecision: \"deny\", permissionDecisionReason: \"Destructive command blocked by hook\"}}'",
    'fi',
    'exit 0',
    '',
  ].join('\n')
  const logWrites = ['#!/bin/bash', "jq -r '.tool_input.file_path' >> \"$CLAUDE_PROJECT_DIR\"/.claude/written.log", ''].join('\n')
  const settings = JSON.stringify({
    permissions: { allow: ['Bash(npm test)'] },
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh' }] }],
      PostToolUse: [{ matcher: 'Edit|MultiEdit|Write', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/log-writes.sh', timeout: 30 }] }],
    },
  }, null, 2)

  it('an untrusted project file lists as untrusted and does not run; dsh hooks trust lets it run unchanged; an edit untrusts it', async () => {
    const w = await workspace({ '.claude/settings.json': settings, '.claude/hooks/block-rm.sh': blockRm, '.claude/hooks/log-writes.sh': logWrites, 'junk/a.txt': 'x' })
    chmodSync(tree.path('repo/.claude/hooks/block-rm.sh'), 0o755)
    chmodSync(tree.path('repo/.claude/hooks/log-writes.sh'), 0o755)
    writeFileSync(w.config, '{}')
    const listed = await runDsh(['--dsh-home', w.home, 'hooks', 'list', '--cwd', w.repo], { cwd: tree.root })
    expect(listed.stdout).toContain('PreToolUse  Bash  "$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh')
    expect(listed.stdout).toContain('untrusted (dsh hooks trust)')
    const responses = [{ toolCalls: [{ name: 'write', arguments: { file_path: 'out.txt', content: 'x\n' } }] }, bashCall('rm -rf junk'), { text: 'ok' }]
    const untrusted = await runWith(w, responses)
    expect(existsSync(tree.path('repo/junk'))).toBe(false)
    // Listed but not run is said, once, so nobody believes the guard is in force.
    expect(untrusted.stderr.split('\n').filter((line) => line.includes('do not run until you trust'))).toEqual([
      `warning: ${tree.path('repo/.claude/settings.json')} defines hooks (PreToolUse, PostToolUse) that do not run until you trust the file: dsh hooks trust, or /hooks trust in dsh chat (dsh hooks list shows them)`,
    ])
    expect(existsSync(tree.path('repo/.claude/written.log'))).toBe(false)

    const trusted = await runDsh(['--dsh-home', w.home, 'hooks', 'trust', '--cwd', w.repo], { cwd: tree.root })
    expect(trusted.stdout).toContain(`trusted ${tree.path('repo/.claude/settings.json')} (sha256 `)
    expect((await runDsh(['--dsh-home', w.home, 'hooks', 'list', '--cwd', w.repo], { cwd: tree.root })).stdout).not.toContain('untrusted')
    writeFileSync(tree.path('repo/junk-again.txt'), 'x')
    writeFileSync(w.log, '')
    const trustedRun = await runWith(w, [{ toolCalls: [{ name: 'write', arguments: { file_path: 'out.txt', content: 'y\n' } }] }, bashCall('rm -rf junk-again.txt'), { text: 'ok' }])
    expect(trustedRun.stderr).not.toContain('do not run until you trust')
    expect(toolText(readRequests(w.log))).toContain('The bash call was denied: a PreToolUse hook blocked it: Destructive command blocked by hook. Do not retry it unchanged; choose another approach or ask the user.')
    expect(existsSync(tree.path('repo/junk-again.txt'))).toBe(true)
    expect(readFileSync(tree.path('repo/.claude/written.log'), 'utf8')).toBe(`${join(w.repo, 'out.txt')}\n`)

    writeFileSync(tree.path('repo/.claude/settings.json'), settings.replace('30', '31'))
    expect((await runDsh(['--dsh-home', w.home, 'hooks', 'list', '--cwd', w.repo], { cwd: tree.root })).stdout).toContain('untrusted (dsh hooks trust)')
    await runWith(w, [bashCall('rm -rf junk-again.txt'), { text: 'ok' }])
    expect(existsSync(tree.path('repo/junk-again.txt'))).toBe(false)
  })

  it('hooks in $DSH_HOME/settings.yaml run too, and the provider key is not in their environment', async () => {
    const w = await workspace()
    writeFileSync(w.config, '{}')
    const settingsYaml = ['hooks:', '  PreToolUse:', '    - matcher: Read', '      hooks:', `        - { type: command, command: "env > ${tree.path('hook-env.txt')}" }`, ''].join('\n')
    mkdirSync(w.home, { recursive: true })
    writeFileSync(tree.path('home/settings.yaml'), settingsYaml)
    const script = writeScript(tree.path('scripts'), 'read.json', { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'ok' }] })
    await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, 'go'], { cwd: tree.root, env: { DEEPSEEK_API_KEY: 'sk-secret-value', OTHER_VAR: 'kept' } })
    const env = readFileSync(tree.path('hook-env.txt'), 'utf8')
    expect(env).toContain('OTHER_VAR=kept')
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${w.repo}`)
    expect(env).not.toContain('sk-secret-value')
  })
})
