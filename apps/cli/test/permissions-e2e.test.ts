// Permissions and the shell sandbox through the built binary: dsh run's denials name the way out,
// --allow / --deny / --permission-mode and the config and settings.yaml rules, a shell write
// outside the roots under bubblewrap and under danger-full-access, --add-dir roots writable from
// the shell, the fallback without bubblewrap (simulated by PATH), tool/permission events in the
// log and a resume over them, "allow always" in dsh chat remembered across a resume, and
// dsh sandbox check.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function workspace() {
  tree = await tempTree({ 'repo/notes.txt': 'alpha\n', 'extra/': null, 'outside/': null, 'tmp/': null, 'scripts/': null })
  // TMPDIR inside the tree: the temp root dsh binds writable is then not the whole of /tmp.
  return { repo: tree.path('repo'), home: tree.path('home'), log: tree.path('requests.jsonl'), env: { TMPDIR: tree.path('tmp') } }
}

const bashScript = (name: string, ...commands: string[]) => writeScript(tree.path('scripts'), name, { responses: [...commands.map((command) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] })), { text: 'done' }] })

/** The model's text for a call a deny rule refused. */
const deniedByRule = (tool: string, rule: string): string => `The ${tool} call was denied: the permission rule "${rule}" denies it. The user's deny rules forbid this; do not try to get around them. Choose another approach or ask the user.`

function toolResults(log: string): string[] {
  return readRequests(log)
    .at(-1)
    ?.messages.filter((message) => message.role === 'tool')
    .map((message) => message.content ?? '') ?? []
}

/** The payloads of the `tool/permission` events among JSONL lines. */
function permissionData(text: string): unknown[] {
  return text
    .trim()
    .split('\n')
    .flatMap((line) => {
      const event: unknown = JSON.parse(line)
      return typeof event === 'object' && event !== null && 'type' in event && event.type === 'tool/permission' && 'data' in event ? [event.data] : []
    })
}

function permissionEvents(home: string, id: string): unknown[] {
  return permissionData(readFileSync(join(home, 'sessions', `${id}.jsonl`), 'utf8'))
}

const write = (file_path: string) => ({ name: 'write', arguments: { file_path, content: 'x' } })

/** What dsh run's denial of a bash call in ask mode says. */
const advice = (rule: string): string =>
  `The bash call was denied: permission mode ask needs the user's approval for bash, and dsh run cannot ask. Tell the user that dsh run allows it with --allow '${rule}' or --permission-mode full-auto (shell commands stay sandboxed to the writable roots; --add-dir adds a root); meanwhile choose another approach.`

/** A PATH directory with node, bash and the basics but no bwrap (made once per tree). */
function pathWithoutBwrap(): string {
  const bin = tree.path('bin')
  if (existsSync(bin)) return bin
  mkdirSync(bin)
  symlinkSync(process.execPath, join(bin, 'node'))
  for (const tool of ['bash', 'sh', 'cat', 'echo', 'env', 'ls', 'touch']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool))
  return bin
}

describe('dsh run permissions', () => {
  it('full-auto by default: the shell runs sandboxed; a write outside the roots fails with the OS error and the way to widen it', async () => {
    const w = await workspace()
    const script = bashScript('out.json', `echo in > in.txt; echo out > ${tree.path('outside')}/x.txt`)
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: w.env })
    expect(result.code).toBe(0)
    expect(toolResults(w.log)[0]).toBe(
      `bash: line 2: ${tree.path('outside')}/x.txt: Read-only file system\n\n[Exit code: 1]\n` +
        `[The sandbox refused a write outside the writable roots (writable: ${w.repo}, ${tree.path('tmp')}). Write inside them instead, or ask the user to widen the sandbox: ` +
        '--add-dir DIR (or dsh roots add DIR) adds a writable root, sandbox.writable in the config file lists more directories, and --permission-mode danger-full-access runs shell commands without a sandbox.]',
    )
    expect(readFileSync(join(w.repo, 'in.txt'), 'utf8')).toBe('in\n')
    expect(existsSync(tree.path('outside/x.txt'))).toBe(false)
    expect(permissionEvents(w.home, sessionIdOf(result.stderr))).toEqual([{ callId: 'call_t1s1_1', tool: 'bash', mode: 'full-auto', decision: 'allow', by: 'mode' }])
  })

  it('--add-dir roots are writable from the shell; danger-full-access writes anywhere', async () => {
    const w = await workspace()
    const extra = bashScript('extra.json', `echo shared > ${tree.path('extra')}/lib.txt && echo ok`)
    await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--add-dir', tree.path('extra'), '--model', `scripted:${extra}`, 'go'], { cwd: tree.root, env: w.env })
    expect(readFileSync(tree.path('extra/lib.txt'), 'utf8')).toBe('shared\n')
    const outside = bashScript('danger.json', `echo out > ${tree.path('outside')}/x.txt`)
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--permission-mode', 'danger-full-access', '--model', `scripted:${outside}`, 'go'], { cwd: tree.root, env: w.env })
    expect(result.code).toBe(0)
    expect(readFileSync(tree.path('outside/x.txt'), 'utf8')).toBe('out\n')
  })

  it('sandbox.writable widens the sandbox for the shell only (a cache directory)', async () => {
    const w = await workspace()
    writeFileSync(tree.path('cache.yaml'), `sandbox:\n  writable: ["${tree.path('outside')}"]\n`)
    const script = bashScript('cache.json', `echo cached > ${tree.path('outside')}/c.txt && echo ok`)
    await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--config', tree.path('cache.yaml'), '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: w.env })
    expect(toolResults(w.log)[0]).toBe('ok\n\n[Exit code: 0]')
    expect(readFileSync(tree.path('outside/c.txt'), 'utf8')).toBe('cached\n')
  })

  it('--permission-mode ask: a denial names --allow and the mode; --allow lets exactly that command through; --deny wins', async () => {
    const w = await workspace()
    const script = bashScript('ask.json', 'git status', 'git status; touch pwned')
    const denied = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--permission-mode', 'ask', '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: w.env })
    expect(denied.code).toBe(0)
    expect(toolResults(w.log)).toEqual([advice('bash(git status:*)'), advice('bash')])
    const allowed = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--permission-mode', 'ask', '--allow', 'bash(git status)', '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: w.env })
    expect(allowed.code).toBe(0)
    const [first, second] = toolResults(w.log)
    expect(first).toMatch(/\[Exit code: \d+\]$/)
    expect(second).toBe(advice('bash'))
    expect(existsSync(join(w.repo, 'pwned'))).toBe(false)
    const deny = bashScript('deny.json', 'touch a && rm -rf a')
    await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--deny', 'bash(rm -rf*)', '--allow', 'bash', '--model', `scripted:${deny}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: w.env })
    expect(toolResults(w.log)).toEqual(['The bash call was denied: the permission rule "bash(rm -rf*)" denies it. The user\'s deny rules forbid this; do not try to get around them. Choose another approach or ask the user.'])
  })

  // A deny list copied from Claude Code's settings (`Bash(rm -rf *)`, `Edit(...)`) used to parse as
  // rules of tools named `Bash` and `Edit`, which no call has: nothing was denied, nothing was said.
  it('Claude Code\'s spellings of rules deny as written: Bash(…), Edit(…) covering write, //absolute paths', async () => {
    const w = await workspace()
    writeFileSync(tree.path('dsh.yaml'), `permissions:\n  deny: ["Bash(rm -rf *)", "Edit(**/.env)", "Write(/${w.repo.slice(1)}/locked.txt)"]\n`)
    const script = writeScript(tree.path('scripts'), 'claude-rules.json', {
      responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'mkdir -p build && rm -rf build' } }, { name: 'write', arguments: { file_path: 'app/.env', content: 'K=1' } }, { name: 'write', arguments: { file_path: 'locked.txt', content: 'x' } }] }, { text: 'done' }],
    })
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--config', tree.path('dsh.yaml'), '--deny', 'Bash(git push:*)', '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: w.env })
    expect(result.code).toBe(0)
    expect(toolResults(w.log)).toEqual([
      'The bash call was denied: the permission rule "bash(rm -rf *)" denies it. The user\'s deny rules forbid this; do not try to get around them. Choose another approach or ask the user.',
      'The write call was denied: the permission rule "edit(**/.env)" denies it. The user\'s deny rules forbid this; do not try to get around them. Choose another approach or ask the user.',
      `The write call was denied: the permission rule "write(${w.repo}/locked.txt)" denies it. The user's deny rules forbid this; do not try to get around them. Choose another approach or ask the user.`,
    ])
    expect(existsSync(join(w.repo, 'app/.env'))).toBe(false)
    expect(existsSync(join(w.repo, 'locked.txt'))).toBe(false)
  })

  it('the deny lists of Claude Code\'s settings (user, project, local) apply; their allow lists grant nothing', async () => {
    const w = await workspace()
    mkdirSync(join(w.repo, '.claude'), { recursive: true })
    mkdirSync(join(w.home, '.claude'), { recursive: true })
    writeFileSync(join(w.repo, '.claude/settings.json'), JSON.stringify({ permissions: { allow: ['Bash', 'Write'], deny: ['Bash(rm -rf *)', 'Read(./.env)', 'Bash(git push'] } }))
    writeFileSync(join(w.repo, '.claude/settings.local.json'), JSON.stringify({ permissions: { deny: ['Write(**/secret.txt)'] } }))
    writeFileSync(join(w.home, '.claude/settings.json'), JSON.stringify({ permissions: { deny: ['Bash(curl:*)'] } }))
    writeFileSync(join(w.repo, '.env'), 'TOKEN=1\n')
    const script = writeScript(tree.path('scripts'), 'claude-settings.json', {
      responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'mkdir -p build && rm -rf build' } }, { name: 'read', arguments: { file_path: '.env' } }, { name: 'write', arguments: { file_path: 'a/secret.txt', content: 'x' } }, { name: 'bash', arguments: { command: 'curl -s http://127.0.0.1:1' } }, { name: 'bash', arguments: { command: 'ls' } }] }, { text: 'done' }],
    })
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--permission-mode', 'ask', '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: { ...w.env, HOME: w.home } })
    expect(result.code).toBe(0)
    const results = toolResults(w.log)
    expect(results.slice(0, 4)).toEqual([deniedByRule('bash', 'bash(rm -rf *)'), deniedByRule('read', 'read(./.env)'), deniedByRule('write', 'write(**/secret.txt)'), deniedByRule('bash', 'bash(curl:*)')])
    // The project's allow list gave nothing: in ask mode, dsh run cannot ask, so ls is refused by the mode.
    expect(results[4]).toContain('permission mode ask needs the user\'s approval for bash')
    expect(result.stderr).toContain(`${join(w.repo, '.claude/settings.json')}: permissions.deny[2]: invalid permission rule "Bash(git push" (expected TOOL or TOOL(PATTERN), e.g. bash(npm test*)); this rule is ignored, the other rules apply`)
  })

  it('rules from the config file and settings.yaml join the command line\'s; deny wins wherever it comes from', async () => {
    const w = await workspace()
    mkdirSync(w.home, { recursive: true })
    writeFileSync(join(w.home, 'settings.yaml'), 'permissions:\n  deny: ["write(**/.env)"]\n')
    writeFileSync(tree.path('dsh.yaml'), 'permissions:\n  mode: auto-edit\n  allow: ["bash(echo *)", "write"]\n')
    const script = writeScript(tree.path('scripts'), 'layers.json', {
      responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo hi' } }, { name: 'write', arguments: { file_path: 'app/.env', content: 'K=1' } }, { name: 'write', arguments: { file_path: 'ok.txt', content: 'x' } }, { name: 'bash', arguments: { command: 'ls' } }] }, { text: 'done' }],
    })
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--config', tree.path('dsh.yaml'), '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: w.env })
    expect(result.code).toBe(0)
    const results = toolResults(w.log)
    expect(results[0]).toBe('hi\n\n[Exit code: 0]')
    expect(results[1]).toBe('The write call was denied: the permission rule "write(**/.env)" denies it. The user\'s deny rules forbid this; do not try to get around them. Choose another approach or ask the user.')
    expect(results[2]).toMatch(/^Created ok\.txt/)
    expect(results[3]).toContain('permission mode auto-edit needs the user\'s approval for bash')
    expect(permissionEvents(w.home, sessionIdOf(result.stderr))).toEqual([
      { callId: 'call_t1s1_1', tool: 'bash', mode: 'auto-edit', decision: 'allow', by: 'rule', rule: 'bash(echo *)' },
      { callId: 'call_t1s1_2', tool: 'write', mode: 'auto-edit', decision: 'deny', by: 'rule', rule: 'write(**/.env)' },
      { callId: 'call_t1s1_3', tool: 'write', mode: 'auto-edit', decision: 'allow', by: 'mode' },
      { callId: 'call_t1s1_4', tool: 'bash', mode: 'auto-edit', decision: 'deny', by: 'mode' },
    ])
    // A session with permission events resumes.
    const again = bashScript('again.json', 'echo again')
    const resumed = await runDsh(['--dsh-home', w.home, 'run', '--resume', sessionIdOf(result.stderr), '--model', `scripted:${again}`, 'go on'], { cwd: tree.root, env: w.env })
    expect(resumed).toMatchObject({ code: 0, stdout: 'done\n' })
  })

  // Audit: one bad rule in settings.yaml used to drop every rule of the file ("using base values"),
  // so a typo in one deny rule switched the others off.
  it('a bad rule in settings.yaml is reported and ignored; the file\'s other rules stay in force', async () => {
    const w = await workspace()
    mkdirSync(w.home, { recursive: true })
    writeFileSync(join(w.home, 'settings.yaml'), 'permissions:\n  deny: ["bash(rm -rf*)", "write(**/.env"]\n')
    const script = bashScript('typo.json', 'mkdir -p build && rm -rf build && echo removed')
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: w.env })
    expect(result.code).toBe(0)
    expect(toolResults(w.log)[0]).toBe('The bash call was denied: the permission rule "bash(rm -rf*)" denies it. The user\'s deny rules forbid this; do not try to get around them. Choose another approach or ask the user.')
    expect(result.stderr.split('\n').filter((line) => line.includes('settings.yaml'))).toEqual([
      'settings.yaml: permissions.deny[1]: invalid permission rule "write(**/.env" (expected TOOL or TOOL(PATTERN), e.g. bash(npm test*)); this rule is ignored, the other rules apply',
    ])
  })

  // Audit: with $DSH_HOME inside the working directory the model could write settings.yaml (whose
  // permission rules apply live) with the write tool or the shell, and allow itself everything.
  it('$DSH_HOME inside the working directory: its settings stay out of the model\'s reach', async () => {
    const w = await workspace()
    const home = join(w.repo, '.dsh')
    mkdirSync(home, { recursive: true })
    writeFileSync(join(home, 'settings.yaml'), 'permissions:\n  deny: ["bash(git push:*)"]\n')
    const script = writeScript(tree.path('scripts'), 'home.json', {
      responses: [{ toolCalls: [{ name: 'write', arguments: { file_path: '.dsh/settings.yaml', content: 'permissions: {}\n' } }, { name: 'bash', arguments: { command: 'echo "permissions: {}" > .dsh/settings.yaml' } }] }, { text: 'done' }],
    })
    const result = await runDsh(['--dsh-home', home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: w.env })
    expect(result.code).toBe(0)
    const [written, shell] = toolResults(w.log)
    expect(written).toBe(
      `The write call was denied: the path is part of dsh's own settings and sessions (${home}), which the model never changes without the user's approval, and dsh run cannot ask. Do not try to change dsh's settings or session logs some other way; tell the user what change you suggest, and they can make it themselves.`,
    )
    expect(shell).toContain('.dsh/settings.yaml: Read-only file system')
    expect(readFileSync(join(home, 'settings.yaml'), 'utf8')).toBe('permissions:\n  deny: ["bash(git push:*)"]\n')
  })

  it('the config file in use is protected the same way (its mode and rules apply to later runs)', async () => {
    const w = await workspace()
    const config = join(w.repo, 'dsh.yaml')
    writeFileSync(config, 'permissions:\n  deny: ["bash(git push:*)"]\n')
    const script = writeScript(tree.path('scripts'), 'config.json', {
      responses: [{ toolCalls: [{ name: 'edit', arguments: { file_path: 'dsh.yaml', old_string: 'deny', new_string: 'allow' } }, { name: 'bash', arguments: { command: 'echo "permissions: { mode: danger-full-access }" > dsh.yaml' } }] }, { text: 'done' }],
    })
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--config', 'repo/dsh.yaml', '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: w.env })
    expect(result.code).toBe(0)
    const [edited, shell] = toolResults(w.log)
    expect(edited).toBe(
      `The edit call was denied: the path is part of dsh's own settings and sessions (${config}), which the model never changes without the user's approval, and dsh run cannot ask. Do not try to change dsh's settings or session logs some other way; tell the user what change you suggest, and they can make it themselves.`,
    )
    expect(shell).toContain('dsh.yaml: Read-only file system')
    expect(readFileSync(config, 'utf8')).toBe('permissions:\n  deny: ["bash(git push:*)"]\n')
  })

  // Audit (known and accepted before): in ask mode a write outside every root was asked about and,
  // once approved, failed in the tool; dsh run's denial even suggested an --allow rule that could
  // not help. It is now denied at once, naming --add-dir.
  it('ask mode: a write outside every writable root is denied at once, naming --add-dir; one inside a root (or linked into one) is not', async () => {
    const w = await workspace()
    symlinkSync(tree.path('extra'), tree.path('linked'))
    const script = writeScript(tree.path('scripts'), 'outside.json', {
      responses: [{ toolCalls: [write(`${tree.path('outside')}/x.txt`), write(`${tree.path('extra')}/y.txt`), write(`${tree.path('linked')}/z.txt`)] }, { text: 'done' }],
    })
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--add-dir', tree.path('extra'), '--permission-mode', 'ask', '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: w.env })
    expect(result.code).toBe(0)
    const [outside, extra, linked] = toolResults(w.log)
    expect(outside).toBe(
      `The write call was denied: ${tree.path('outside')}/x.txt is outside every writable root of this session (${w.repo}, ${tree.path('tmp')}, ${tree.path('extra')}), so no answer could let the write through. ` +
        'Write inside one of the roots; if this file must change, tell the user that --add-dir DIR (or dsh roots add DIR) makes its directory a writable root.',
    )
    expect(extra).toContain("dsh run cannot ask. Tell the user that dsh run allows it with --allow 'write(")
    expect(linked).toContain("dsh run cannot ask. Tell the user that dsh run allows it with --allow 'write(")
  })

  it('bad modes and rules are one-line usage errors naming the option, file and key', async () => {
    const w = await workspace()
    const script = bashScript('none.json')
    const run = (...args: string[]) => runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, ...args, 'go'], { cwd: tree.root, env: w.env })
    expect(await run('--permission-mode', 'yolo')).toEqual({ code: 2, stdout: '', stderr: 'dsh: --permission-mode yolo: unknown mode (expected one of read-only, ask, auto-edit, full-auto, danger-full-access)\n' })
    expect(await run('--allow', 'bash(npm test')).toEqual({ code: 2, stdout: '', stderr: 'dsh: --allow: invalid permission rule "bash(npm test" (expected TOOL or TOOL(PATTERN), e.g. bash(npm test*))\n' })
    writeFileSync(tree.path('bad.yaml'), 'permissions:\n  deny: ["ok", "bash()"]\n')
    expect(await run('--config', tree.path('bad.yaml'))).toEqual({ code: 2, stdout: '', stderr: `dsh: ${tree.path('bad.yaml')}: permissions.deny.1: empty pattern in permission rule "bash()" (write bash alone to match every call)\n` })
    writeFileSync(tree.path('bad2.yaml'), 'sandbox:\n  network: maybe\n')
    expect((await run('--config', tree.path('bad2.yaml'))).stderr).toMatch(/^dsh: .*bad2\.yaml: sandbox\.network: .*\n$/)
  })

  it('network: cut with sandbox.network: false (a loopback port of the host is not reachable)', async () => {
    const w = await workspace()
    writeFileSync(tree.path('offline.yaml'), 'sandbox:\n  network: false\n')
    const script = bashScript('net.json', 'cat < /dev/null > /dev/tcp/127.0.0.1/9 || echo no-network')
    await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--config', tree.path('offline.yaml'), '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: w.env })
    expect(toolResults(w.log)[0]).toMatch(/no-network\n\n\[Exit code: 0\]$/)
  })

  it('API keys of the model provider are not in the shell\'s environment', async () => {
    const w = await workspace()
    writeFileSync(tree.path('keys.yaml'), 'model:\n  apiKeyEnv: MY_MODEL_KEY\n')
    const script = bashScript('env.json', 'env | grep -E "KEY|VISIBLE" | sort')
    await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--config', tree.path('keys.yaml'), '--model', `scripted:${script}`, '--request-log', w.log, 'go'], {
      cwd: tree.root,
      env: { ...w.env, DEEPSEEK_API_KEY: 'a', OPENAI_API_KEY: 'b', MY_MODEL_KEY: 'c', STILL_VISIBLE: 'd' },
    })
    expect(toolResults(w.log)[0]).toBe('STILL_VISIBLE=d\n\n[Exit code: 0]')
  })
})

describe('without bubblewrap (PATH has no bwrap)', () => {
  it('dsh run says so once and refuses shell calls; danger-full-access runs them', async () => {
    const w = await workspace()
    const env = { ...w.env, PATH: pathWithoutBwrap() }
    const script = bashScript('nobwrap.json', 'echo one', 'echo two')
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env })
    expect(result.code).toBe(0)
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual(['warning: no sandbox for shell commands: bubblewrap (bwrap) is not installed; shell commands are refused unless --permission-mode danger-full-access'])
    const refusal =
      'The bash call was denied: shell commands need the sandbox, which is not available here (bubblewrap is missing or cannot start), and dsh run does not run them unsandboxed. Use read, glob, grep, write and edit instead; tell the user to install bubblewrap, or to run dsh run with --permission-mode danger-full-access to allow shell commands without a sandbox.'
    expect(toolResults(w.log)).toEqual([refusal, refusal])
    const danger = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--permission-mode', 'danger-full-access', '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env })
    expect(danger.stderr).not.toContain('warning:')
    expect(toolResults(w.log)).toEqual(['one\n\n[Exit code: 0]', 'two\n\n[Exit code: 0]'])
  })

  it('a bwrap that cannot start (no user namespaces) counts as no sandbox, said once with its own words', async () => {
    const w = await workspace()
    const fake = tree.path('fake-bin')
    mkdirSync(fake)
    writeFileSync(join(fake, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create a new namespace" >&2\nexit 1\n', { mode: 0o755 })
    const script = bashScript('broken.json', 'echo one')
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log, 'go'], { cwd: tree.root, env: { ...w.env, PATH: `${fake}:${process.env['PATH'] ?? '/usr/bin:/bin'}` } })
    expect(result.stderr).toContain('warning: no sandbox for shell commands: bubblewrap cannot start (bwrap: No permissions to create a new namespace); shell commands are refused unless --permission-mode danger-full-access\n')
    expect(toolResults(w.log)[0]).toMatch(/^The bash call was denied: shell commands need the sandbox/)
  })

  it('dsh chat asks before every shell call, even in full-auto (--yes)', async () => {
    const w = await workspace()
    const script = bashScript('chat-nobwrap.json', 'echo made > made.txt')
    const result = await runDshPiped(['--dsh-home', w.home, 'chat', '--yes', '--cwd', w.repo, '--model', `scripted:${script}`], 'go\ny\n', { cwd: tree.root, env: { ...w.env, PATH: pathWithoutBwrap() } })
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('warning: no sandbox for shell commands: bubblewrap (bwrap) is not installed; every shell command will ask before it runs unsandboxed\n')
    expect(result.stdout).toContain('Run bash: echo made > made.txt? [y/N] y\n')
    expect(readFileSync(join(w.repo, 'made.txt'), 'utf8')).toBe('made\n')
  })
})

describe('dsh chat permissions', () => {
  it('"allow always" (a) is remembered for the session, and again after --resume', async () => {
    const w = await workspace()
    const script = bashScript('always.json', 'echo one', 'echo one two')
    const first = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`], 'go\na\n', { cwd: tree.root, env: w.env })
    expect(first.code).toBe(0)
    expect(first.stdout.match(/\[y\/N\]/g)).toHaveLength(1)
    const id = sessionIdOf(first.stderr)
    expect(permissionEvents(w.home, id)).toEqual([
      { callId: 'call_t1s1_1', tool: 'bash', mode: 'ask', decision: 'allow', by: 'answer', remember: 'bash(echo one:*)' },
      { callId: 'call_t1s2_1', tool: 'bash', mode: 'ask', decision: 'allow', by: 'rule', rule: 'bash(echo one:*)' },
    ])
    const again = bashScript('again.json', 'echo one more')
    const second = await runDshPiped(['--dsh-home', w.home, 'chat', '--resume', id, '--model', `scripted:${again}`], 'go on\n', { cwd: tree.root, env: w.env })
    expect(second.stdout).not.toContain('[y/N]')
    expect(permissionEvents(w.home, id).at(-1)).toEqual({ callId: 'call_t2s1_1', tool: 'bash', mode: 'ask', decision: 'allow', by: 'rule', rule: 'bash(echo one:*)' })
  })

  it('--yes and another --permission-mode cannot be combined', async () => {
    const w = await workspace()
    const result = await runDshPiped(['--dsh-home', w.home, 'chat', '--yes', '--permission-mode', 'ask', '--cwd', w.repo, '--model', `scripted:${bashScript('x.json')}`], '', { cwd: tree.root })
    expect(result).toMatchObject({ code: 2, stderr: 'dsh: --yes means --permission-mode full-auto; it cannot be combined with --permission-mode ask\n' })
  })
})

describe('dsh sandbox check', () => {
  it('prints the mode, the roots and the network, and passes its self-test', async () => {
    const w = await workspace()
    const result = await runDsh(['--dsh-home', w.home, 'sandbox', 'check', '--cwd', w.repo, '--add-dir', tree.path('extra')], { cwd: tree.root, env: w.env })
    expect(result.code).toBe(0)
    const lines = result.stdout.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT').replace(/check-[0-9a-f]+/g, 'check-X').replace(/\(pid \d+\)/, '(pid PID)').split('\n')
    expect(lines).toEqual([
      'mode: full-auto (shell sandboxed) (the dsh run default; chat, ACP and web default to ask)',
      'sandbox: bubblewrap (available)',
      'writable from the shell:',
      `  ${w.repo} (working directory)`,
      `  ${tree.path('extra')} (additional root)`,
      `  ${tree.path('tmp')} (temp: a private directory there, removed when dsh ends)`,
      'network: on',
      "read-only inside the roots: .git/config, .git/hooks, .git/info (nested repositories, submodules and worktrees too), .dsh*, .claude, .vscode, .idea, .envrc, .mcp.json, dsh's home and config file, and the executable files the repository tracks (the 16 shallowest bound; the rest, and hook files in the work tree, put back when a command changes them)",
      `reverted when a command creates them: those names where they do not exist yet, a .git at the top of a root, and a new repository below it holding a hook or a config key that runs a program (moved to ${w.home}/quarantine)`,
      "hidden: session sockets (ssh-agent, tmux, D-Bus, X11, $XDG_RUNTIME_DIR), credential stores (~/.ssh, ~/.aws, ~/.gnupg, ~/.netrc, …), dsh's sessions and history",
      'not confined: other reads (the rest of the filesystem is readable), and the structured write and edit tools, which have their own root check',
      'self-test:',
      `  ok   write inside ${w.repo}: allowed`,
      '  ok   write outside the roots (/): refused — bash: line 2: /.sandbox-check-X: Read-only file system',
      '  ok   connect to a loopback listener (127.0.0.1:PORT): reachable',
      '  ok   capabilities of a command: none',
      '  ok   write through /proc/$PPID/root: refused',
      '  ok   signal to dsh (pid PID): refused',
      "  ok   SIGUSR1 to dsh (Node's inspector): no inspector",
      `  ok   create a protected file (.dsh-sandbox-check-…) in ${w.repo}: reverted`,
      `  ok   create a repository with a hook (dsh-sandbox-check-repo-…) below ${w.repo}: reverted`,
      '  ok   a background process when dsh dies: ended',
      '',
    ])
  })

  it('with the network off the loopback listener is cut; without bwrap the check fails', async () => {
    const w = await workspace()
    writeFileSync(tree.path('offline.yaml'), 'sandbox:\n  network: false\n')
    const offline = await runDsh(['--dsh-home', w.home, 'sandbox', 'check', '--cwd', w.repo, '--config', tree.path('offline.yaml')], { cwd: tree.root, env: w.env })
    expect(offline.code).toBe(0)
    expect(offline.stdout).toContain('network: off (sandbox.network: false)\n')
    expect(offline.stdout).toMatch(/ok {3}connect to a loopback listener \(127\.0\.0\.1:\d+\): cut/)
    const missing = await runDsh(['--dsh-home', w.home, 'sandbox', 'check', '--cwd', w.repo], { cwd: tree.root, env: { ...w.env, PATH: pathWithoutBwrap() } })
    expect(missing.code).toBe(1)
    expect(missing.stdout).toContain('sandbox: none: bubblewrap (bwrap) is not installed\n')
    expect(missing.stdout).toContain('self-test: skipped (no sandbox)\n')
  })
})
