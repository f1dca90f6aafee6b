// MCP servers through the built binary with the scripted model: a call of mcp__everything__echo
// whose result reaches the next request, the `dsh mcp` commands and their one-line errors, a
// project .mcp.json that starts nothing until trusted, one warning for a server that cannot start,
// and no server process (nor its child) outliving dsh after SIGTERM or SIGHUP.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { faultServer, mcpJson, serverScript } from './mcp-servers.ts'
import { dshBinary, readRequests, runDsh, testEnv, writeScript, type DshResult, type RequestBody } from './run-dsh.ts'
import { isAlive, StartedProcesses } from './test-processes.ts'

let tree: TempTree
const started = new StartedProcesses()
afterEach(async () => {
  started.endAll()
  await tree?.dispose()
})

const requests = readRequests
const toolNames = (body: RequestBody | undefined): string[] => (body?.tools ?? []).map((tool) => JSON.stringify(tool).match(/"name":"([^"]+)"/)?.[1] ?? '')

describe('dsh run with MCP servers', () => {
  it('calls mcp__everything__echo and sends its result with the next request', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'repo/.git/': null, 'repo/a.txt': 'x' })
    writeFileSync(tree.path('servers.json'), mcpJson({ everything: { script: serverScript('server-everything') } }))
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hello from the model' } }] }, { text: 'done' }] })
    const log = tree.path('requests.jsonl')
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--mcp-config', tree.path('servers.json'), '--request-log', log, 'echo something'], { cwd: tree.root, timeoutMs: 60_000 })
    expect(result.stderr).not.toContain('warning')
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('done\n')
    const [, second] = requests(log)
    expect(second?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Echo: hello from the model' })
    const names = toolNames(second)
    expect(names).toContain('mcp__everything__echo')
    const mcpNames = names.filter((name) => name.startsWith('mcp__'))
    expect(mcpNames).toEqual(mcpNames.toSorted())
  })

  it('names a server that cannot start in exactly one warning line and goes on', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'repo/.git/': null })
    writeFileSync(tree.path('servers.json'), JSON.stringify({ mcpServers: { ghost: { command: 'no-such-mcp-command-anywhere' } } }))
    // The call of one of its tools waits for the server to start (or fail), so the warning comes before the run ends.
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'mcp__ghost__anything', arguments: {} }] }, { text: 'fine' }] })
    const log = tree.path('requests.jsonl')
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--mcp-config', tree.path('servers.json'), '--request-log', log, 'hi'], { cwd: tree.root, timeoutMs: 60_000 })
    expect(result.code).toBe(0)
    expect(requests(log)[1]?.messages.at(-1)?.content).toMatch(/^Unknown tool "mcp__ghost__anything"/)
    expect(result.stdout).toBe('fine\n')
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual(['warning: MCP server "ghost" failed: command not found: no-such-mcp-command-anywhere; its tools are not available (dsh mcp get ghost shows its stderr)'])
  })

  it('reports a malformed --mcp-config entry in one line and still starts the others', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'repo/.git/': null })
    const file = tree.path('servers.json')
    writeFileSync(file, JSON.stringify({ mcpServers: { web: { type: 'http', url: 'ftp://example.test/mcp' }, odd: { type: 'carrier-pigeon' }, ok: { command: process.execPath, args: [faultServer] } } }))
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'mcp__ok__ok', arguments: {} }] }, { text: 'fine' }] })
    const log = tree.path('requests.jsonl')
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--mcp-config', file, '--request-log', log, 'hi'], { cwd: tree.root, timeoutMs: 60_000 })
    expect(result.code).toBe(0)
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      `warning: ${file}: server "web": "url" "ftp://example.test/mcp" is not http(s)`,
      `warning: ${file}: server "odd": unknown transport "carrier-pigeon" (use "stdio" or "http")`,
      'warning: MCP server "ok": tool "bad_schema" is left out: its input schema has type "string", not "object"',
    ])
    expect(requests(log)[1]?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'ok' })
  })

  it('starts nothing from an untrusted .mcp.json, says so once, and starts it after dsh mcp trust', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'repo/.git/': null })
    writeFileSync(tree.path('repo/.mcp.json'), mcpJson({ faults: { script: faultServer } }))
    const home = tree.path('home')
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'mcp__faults__ok', arguments: {} }] }, { text: 'fine' }] })
    const log = tree.path('requests.jsonl')
    const run = (): Promise<DshResult> => runDsh(['--dsh-home', home, 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log, 'hi'], { cwd: tree.root, timeoutMs: 60_000 })
    const untrusted = await run()
    expect(untrusted.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([`warning: ${tree.path('repo/.mcp.json')} defines MCP server faults, not started until you trust the file: dsh mcp trust`])
    expect(requests(log)[1]?.messages.at(-1)?.content).toMatch(/^Unknown tool "mcp__faults__ok"/)
    const listed = await runDsh(['--dsh-home', home, 'mcp', 'list', '--cwd', tree.path('repo')], { cwd: tree.root, timeoutMs: 60_000 })
    expect(listed.stdout).toBe('faults  stdio  .mcp.json  untrusted\nuntrusted servers come from the project\'s .mcp.json: review it, then run dsh mcp trust\n')
    const trusted = await runDsh(['--dsh-home', home, 'mcp', 'trust', '--cwd', tree.path('repo')], { cwd: tree.root })
    expect(trusted.code).toBe(0)
    expect(trusted.stdout).toMatch(/^trusted .*\.mcp\.json \(sha256 [0-9a-f]{12}…\): faults; a changed file is untrusted again\n$/)
    writeFileSync(log, '')
    const second = await run()
    expect(second.stderr).not.toContain('trust')
    expect(requests(log)[1]?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'ok' })
    writeFileSync(tree.path('repo/.mcp.json'), mcpJson({ faults: { script: faultServer, args: ['tools'] } }))
    const changed = await runDsh(['--dsh-home', home, 'mcp', 'list', '--cwd', tree.path('repo')], { cwd: tree.root, timeoutMs: 60_000 })
    expect(changed.stdout.split('\n')[0]).toBe('faults  stdio  .mcp.json  untrusted')
  })
})

describe('dsh mcp', () => {
  it('adds, lists, gets, disables and removes a stored server', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'repo/.git/': null })
    const home = tree.path('home')
    const repo = tree.path('repo')
    const dsh = (...args: string[]): Promise<DshResult> => runDsh(['--dsh-home', home, 'mcp', args[0] ?? 'list', '--cwd', repo, ...args.slice(1)], { cwd: tree.root, timeoutMs: 60_000 })
    const added = await dsh('add', 'memory', '--env', `MEMORY_FILE_PATH=${tree.path('memory.jsonl')}`, '--', process.execPath, serverScript('server-memory'))
    expect(added).toMatchObject({ code: 0, stdout: `added MCP server memory (stdio, project ${repo})\n` })
    expect((await dsh('list')).stdout).toBe('memory  stdio  project  connected, 9 tools\n')
    const got = await dsh('get', 'memory')
    expect(got.stdout).toContain('tools (as the model sees them):\n  mcp__memory__add_observations\n')
    expect(got.stdout).toContain('stderr (last lines):\n  Knowledge Graph MCP Server running on stdio\n')
    expect((await dsh('disable', 'memory')).code).toBe(0)
    expect((await dsh('list')).stdout).toBe('memory  stdio  project  disabled\n')
    expect((await dsh('enable', 'memory')).code).toBe(0)
    expect((await dsh('remove', 'memory')).stdout).toBe('removed MCP server memory\n')
    expect((await dsh('list')).stdout).toBe('no MCP servers (add one: dsh mcp add NAME -- COMMAND [ARGS…])\n')
  })

  it('imports Claude Code\'s servers from ~/.claude.json (user scope, this project\'s local scope), which then connect; ${VAR} stays for start time', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'repo/.git/': null, 'me/': null })
    const home = tree.path('home')
    const repo = tree.path('repo')
    const claudeJson = {
      numStartups: 42,
      mcpServers: {
        memory: { type: 'stdio', command: process.execPath, args: [serverScript('server-memory')], env: { MEMORY_FILE_PATH: '${MEMORY_AT}' } },
        broken: { type: 'websocket', url: 'ws://x' },
        docs: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${DOCS_TOKEN:-none}' }, oauth: { clientId: 'x' } },
      },
      projects: { [repo]: { allowedTools: [], mcpServers: { faults: { command: process.execPath, args: [faultServer] } } }, '/elsewhere': { mcpServers: { other: { command: 'x' } } } },
    }
    writeFileSync(tree.path('me/.claude.json'), JSON.stringify(claudeJson))
    const env = { HOME: tree.path('me'), MEMORY_AT: tree.path('memory.jsonl') }
    const dsh = (...args: string[]): Promise<DshResult> => runDsh(['--dsh-home', home, 'mcp', ...args, '--cwd', repo], { cwd: tree.root, env, timeoutMs: 60_000 })
    const dry = await dsh('import', 'claude', '--dry-run')
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain(`would import faults (project ${repo}): ${process.execPath} ${faultServer}\n`)
    expect(existsSync(tree.path('home/mcp-servers.json'))).toBe(false)
    const imported = await dsh('import', 'claude')
    expect(imported.code).toBe(0)
    expect(imported.stdout.split('\n')).toEqual([
      `warning: ${tree.path('me/.claude.json')} mcpServers: server "broken": unknown transport "websocket" (use "stdio" or "http"); not imported`,
      `note: ${tree.path('me/.claude.json')} mcpServers: server "docs": "oauth" not imported (dsh does not read it)`,
      `imported faults (project ${repo}): ${process.execPath} ${faultServer}`,
      `imported memory (user: every project): ${process.execPath} ${serverScript('server-memory')}`,
      'imported docs (user: every project): https://mcp.example.com/mcp',
      `imported 3 servers from ${tree.path('me/.claude.json')}; dsh mcp list connects to them`,
      '',
    ])
    const stored: unknown = JSON.parse(readFileSync(tree.path('home/mcp-servers.json'), 'utf8'))
    expect(stored).toMatchObject({ user: { memory: { env: { MEMORY_FILE_PATH: '${MEMORY_AT}' } }, docs: { headers: { Authorization: 'Bearer ${DOCS_TOKEN:-none}' } } } })
    const listed = (await dsh('list')).stdout.split('\n')
    expect(listed).toContain('faults  stdio  project  connected, 4 tools')
    expect(listed).toContain('memory  stdio  user  connected, 9 tools')
    const again = await dsh('import', 'claude')
    expect(again.stdout).toContain('skipped memory: dsh already stores a server of that name (dsh mcp remove memory first to import it)\n')
    expect(again.stdout.endsWith(`nothing to import from ${tree.path('me/.claude.json')}\n`)).toBe(true)
    const missing = await runDsh(['--dsh-home', home, 'mcp', 'import', 'claude', '--cwd', repo], { cwd: tree.root, env: { HOME: tree.path('repo') } })
    expect(missing).toMatchObject({ code: 1, stderr: `dsh: ${tree.path('repo/.claude.json')}: not found (Claude Code keeps its MCP servers there; set CLAUDE_CONFIG_DIR if yours is elsewhere)\n` })
    expect((await dsh('import', 'gemini')).code).toBe(2)
    writeFileSync(tree.path('me/.claude.json'), '{"mcpServers": {')
    const torn = await dsh('import', 'claude')
    expect(torn.code).toBe(1)
    expect(torn.stderr).toMatch(/^dsh: .*\/me\/\.claude\.json: invalid JSON \(.+\)\n$/)
  })

  it('imports Codex\'s servers from ~/.codex/config.toml (env_vars and bearer tokens as ${VAR}), which then connect; a disabled one is left out', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'repo/.git/': null, 'me/.codex/': null })
    const home = tree.path('home')
    const repo = tree.path('repo')
    const toml = [
      '# Codex configuration',
      'model = "gpt-5"',
      '',
      '[mcp_servers.memory]',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = [${JSON.stringify(serverScript('server-memory'))}]`,
      'env_vars = ["MEMORY_FILE_PATH"]',
      'startup_timeout_sec = 20',
      '',
      '[mcp_servers.figma]',
      'url = "https://mcp.example.com/mcp"',
      'bearer_token_env_var = "FIGMA_TOKEN"',
      'http_headers = { "X-Region" = "eu" }',
      '',
      '[mcp_servers.off]',
      'command = "never"',
      'enabled = false',
      '',
    ].join('\n')
    writeFileSync(tree.path('me/.codex/config.toml'), toml)
    const env = { HOME: tree.path('me'), MEMORY_FILE_PATH: tree.path('memory.jsonl') }
    const dsh = (...args: string[]): Promise<DshResult> => runDsh(['--dsh-home', home, 'mcp', ...args, '--cwd', repo], { cwd: tree.root, env, timeoutMs: 60_000 })
    const imported = await dsh('import', 'codex')
    expect(imported.code).toBe(0)
    const file = tree.path('me/.codex/config.toml')
    expect(imported.stdout.split('\n')).toEqual([
      `note: ${file} mcp_servers: server "memory": "startup_timeout_sec" not imported (dsh does not read it)`,
      `note: ${file} mcp_servers: server "off": disabled in Codex (enabled = false); not imported`,
      `imported memory (user: every project): ${process.execPath} ${serverScript('server-memory')}`,
      'imported figma (user: every project): https://mcp.example.com/mcp',
      `imported 2 servers from ${file}; dsh mcp list connects to them`,
      '',
    ])
    const stored: unknown = JSON.parse(readFileSync(tree.path('home/mcp-servers.json'), 'utf8'))
    expect(stored).toMatchObject({ user: { memory: { env: { MEMORY_FILE_PATH: '${MEMORY_FILE_PATH}' } }, figma: { type: 'http', headers: { Authorization: 'Bearer ${FIGMA_TOKEN}', 'X-Region': 'eu' } } } })
    expect((await dsh('list')).stdout.split('\n')).toContain('memory  stdio  user  connected, 9 tools')
    writeFileSync(file, '[mcp_servers.x\n')
    const torn = await dsh('import', 'codex')
    expect(torn.code).toBe(1)
    expect(torn.stderr).toMatch(/^dsh: .*\/\.codex\/config\.toml: invalid TOML \(.+\)\n$/)
  })

  // A cloned repository can hold links (git keeps them) and a tarball FIFOs: read plainly, either
  // as .mcp.json or .claude/settings.json held `dsh run` at its start, beyond SIGTERM's reach.
  it('a project .mcp.json linked to /dev/zero and a .claude/settings.json that is a FIFO are named and skipped; the run goes on', { timeout: 60_000 }, async () => {
    tree = await tempTree({ 'repo/.git/': null, 'repo/.claude/': null })
    symlinkSync('/dev/zero', tree.path('repo/.mcp.json'))
    execFileSync('mkfifo', [tree.path('repo/.claude/settings.json')])
    const script = writeScript(tree.root, 'script.json', { responses: [{ text: 'still answering' }] })
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, 'hello'], { cwd: tree.root, timeoutMs: 30_000 })
    expect(result).toMatchObject({ code: 0, stdout: 'still answering\n' })
    expect(result.stderr).toContain(`${tree.path('repo/.mcp.json')}: not a regular file; not read`)
    expect(result.stderr).toContain(`${tree.path('repo/.claude/settings.json')} is not a regular file; its hooks are not read`)
  })

  it('refuses bad input in one line and writes nothing', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'repo/.git/': null })
    const home = tree.path('home')
    const dsh = (...args: string[]): Promise<DshResult> => runDsh(['--dsh-home', home, 'mcp', args[0] ?? 'list', '--cwd', tree.path('repo'), ...args.slice(1)], { cwd: tree.root })
    expect(await dsh('add', 'web', '--url', 'file:///etc/passwd')).toMatchObject({ code: 2, stderr: 'dsh: mcp add: server "web": "url" "file:///etc/passwd" is not http(s)\n' })
    expect(await dsh('add', 'bad name', '--', 'x')).toMatchObject({ code: 2, stderr: 'dsh: mcp add: server "bad name": invalid name (use letters, digits, "_", "-" and ".", at most 64)\n' })
    expect(await dsh('add', 'both', '--url', 'http://127.0.0.1:1/mcp', '--', 'x')).toMatchObject({ code: 2, stderr: 'dsh: mcp add: give either --url URL or -- COMMAND [ARGS…], not both\n' })
    expect(await dsh('add', 'h', '--url', 'http://127.0.0.1:1/mcp', '--header', 'no colon')).toMatchObject({ code: 2, stderr: 'dsh: mcp add: --header "no colon" is not \'Name: value\'\n' })
    expect(existsSync(`${home}/mcp-servers.json`)).toBe(false)
    expect((await dsh('add', 'one', '--', 'true')).code).toBe(0)
    const before = readFileSync(`${home}/mcp-servers.json`, 'utf8')
    expect(await dsh('add', 'one', '--scope', 'user', '--', 'true')).toMatchObject({ code: 2, stderr: `dsh: mcp add: server "one": duplicate name (already stored for project ${tree.path('repo')}); dsh mcp remove one first\n` })
    expect(await dsh('remove', 'nope')).toMatchObject({ code: 2 })
    expect(readFileSync(`${home}/mcp-servers.json`, 'utf8')).toBe(before)
  })
})

async function waitFor(predicate: () => boolean, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!predicate()) {
    if (Date.now() > deadline) return false
    await new Promise((wake) => setTimeout(wake, 25))
  }
  return true
}

describe('no MCP server outlives dsh', () => {
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`ends the server and its child on ${signal} during a call`, { timeout: 120_000 }, async () => {
      tree = await tempTree({ 'repo/.git/': null })
      const pidFile = tree.path('pids')
      writeFileSync(tree.path('servers.json'), mcpJson({ faults: { script: faultServer, env: { PID_FILE: pidFile } } }))
      const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'mcp__faults__hang', arguments: {} }] }, { text: 'never' }] })
      const child = spawn(dshBinary, ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--mcp-config', tree.path('servers.json'), 'hang'], { cwd: tree.root, env: testEnv(tree.root, { NO_COLOR: '1' }), stdio: ['ignore', 'pipe', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
      expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').includes(' '))).toBe(true)
      const pids = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number)
      started.add(...pids)
      expect(pids.every(isAlive)).toBe(true)
      child.kill(signal)
      expect(await done).toBe(signal === 'SIGTERM' ? 143 : 129)
      expect(pids.filter(isAlive), stderr).toEqual([])
    })
  }
})
