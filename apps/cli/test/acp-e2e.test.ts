// `dsh acp` as an editor runs it: the built binary on piped stdio, driven by the ACP SDK's client,
// with a scripted model. Instructions, additional directories, permissions, cancel, load from a
// second process while the first still runs, concurrent sessions, only JSON-RPC on stdout, and a
// prompt exit on stdin EOF and on SIGTERM that ends tool processes.
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { version } from '../src/version.ts'
import { jsonRpcLines, spawnAcp, waitFor, type AcpProcess } from './acp-driver.ts'
import { readRequests, runDsh, sessionIdOf, writeScript } from './run-dsh.ts'
import { hostPidOf, isAlive, StartedProcesses } from './test-processes.ts'

let tree: TempTree | undefined
const running: AcpProcess[] = []
const started = new StartedProcesses()
afterEach(async () => {
  for (const acp of running.splice(0)) acp.child.kill('SIGKILL')
  started.endAll()
  await tree?.dispose()
})

function launch(args: readonly string[], options: Parameters<typeof spawnAcp>[1]): AcpProcess {
  const acp = spawnAcp(args, options)
  running.push(acp)
  return acp
}

/** A scripted model response running one bash command. */
const shell = (command: string) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] })

const initialize = (acp: AcpProcess) => acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })

describe('dsh acp', () => {
  it('reads a nested file with its instructions in the next request, grants additional directories, writes only JSON-RPC on stdout and exits 0 on EOF', async () => {
    tree = await tempTree({ 'work/AGENTS.md': 'top rule\n', 'work/pkg/AGENTS.md': 'nested rule: tabs only\n', 'work/pkg/notes.txt': 'hello\n', 'lib/': null })
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'pkg/notes.txt' } }, { name: 'write', arguments: { file_path: tree.path('lib/out.txt'), content: 'from acp\n' } }] }, { text: 'read and wrote' }] })
    // Mode ask (the default of dsh acp): the write into the additional directory is asked about first.
    const acp = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--request-log', tree.path('requests.jsonl')], { cwd: tree.path('work'), home: tree.root, answer: () => 'allow-once' })
    const hello = await initialize(acp)
    expect(hello).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true, sessionCapabilities: { additionalDirectories: {}, list: {}, close: {} } }, agentInfo: { name: 'dsh', version } })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), additionalDirectories: [tree.path('lib')], mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'notes?' }] })).toEqual({ stopReason: 'end_turn' })
    const calls = acp.updates.map((note) => note.update).filter((update) => update.sessionUpdate === 'tool_call')
    expect(calls).toMatchObject([
      { kind: 'read', title: 'Read pkg/notes.txt', locations: [{ path: tree.path('work/pkg/notes.txt') }] },
      { kind: 'edit', title: `Write ${tree.path('lib/out.txt')}`, locations: [{ path: tree.path('lib/out.txt') }] },
    ])
    expect(acp.questions).toEqual([`Write ${tree.path('lib/out.txt')}`])
    expect(readFileSync(tree.path('lib/out.txt'), 'utf8')).toBe('from acp\n')
    const requests = readRequests(tree.path('requests.jsonl'))
    expect(JSON.stringify(requests[1]?.messages)).toContain('nested rule: tabs only')
    acp.child.stdin?.end()
    expect(await acp.exited).toBe(0)
    expect(jsonRpcLines(acp.stdout()).length).toBeGreaterThan(5)
  })

  it('opens a session whose editor names a directory already registered with dsh roots add (or names one twice), and writes there', async () => {
    tree = await tempTree({ 'work/': null, 'lib/': null })
    expect((await runDsh(['--dsh-home', tree.path('home'), 'roots', 'add', tree.path('lib')], { cwd: tree.path('work') })).code).toBe(0)
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'write', arguments: { file_path: tree.path('lib/out.txt'), content: 'shared\n' } }] }, { text: 'wrote' }] })
    const acp = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`], { cwd: tree.path('work'), home: tree.root, answer: () => 'allow-once' })
    await initialize(acp)
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), additionalDirectories: [tree.path('lib'), tree.path('lib')], mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write' }] })).toEqual({ stopReason: 'end_turn' })
    expect(readFileSync(tree.path('lib/out.txt'), 'utf8')).toBe('shared\n')
    expect(acp.stderr()).toBe('')
  })

  it('with multi-root disabled in the config, does not offer additional directories and refuses any sent anyway, naming the setting', async () => {
    tree = await tempTree({ 'work/': null, 'lib/': null, 'config.yaml': 'multiRootWorkspace:\n  enabled: false\n' })
    const acp = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${writeScript(tree.root, 'script.json', { responses: [] })}`, '--config', tree.path('config.yaml')], { cwd: tree.path('work'), home: tree.root })
    expect((await initialize(acp)).agentCapabilities?.sessionCapabilities).toEqual({ list: {}, close: {} })
    const refused = await acp.agent.request('session/new', { cwd: tree.path('work'), additionalDirectories: [tree.path('lib')], mcpServers: [] }).catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: -32602, message: `Invalid params: additionalDirectories: ${tree.path('lib')}: additional workspace roots are disabled (multiRootWorkspace.enabled is false in the config file)` })
    expect(await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })).toMatchObject({ sessionId: expect.any(String) })
  })

  it('grants dsh acp --add-dir to every session, and leaves it out (with a warning) of a session that works in it', async () => {
    tree = await tempTree({ 'work/': null, 'lib/': null })
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'write', arguments: { file_path: tree.path('lib/out.txt'), content: 'from work\n' } }] }, { text: 'wrote' }, { text: 'in lib' }] })
    const acp = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--add-dir', tree.path('lib')], { cwd: tree.path('work'), home: tree.root, answer: () => 'allow-once' })
    await initialize(acp)
    const work = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId: work.sessionId, prompt: [{ type: 'text', text: 'write' }] })).toEqual({ stopReason: 'end_turn' })
    expect(readFileSync(tree.path('lib/out.txt'), 'utf8')).toBe('from work\n')
    expect(acp.stderr()).toBe('')
    const lib = await acp.agent.request('session/new', { cwd: tree.path('lib'), mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId: lib.sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({ stopReason: 'end_turn' })
    expect(acp.stderr()).toMatch(new RegExp(`^warning: --add-dir ${tree.path('lib')} is not a root of the session in ${tree.path('lib')}: .+\n$`))
  })

  it('sends the model exactly the requests dsh run and dsh run --resume send for the same two prompts', async () => {
    tree = await tempTree({ 'work/AGENTS.md': 'top rule\n', 'work/pkg/AGENTS.md': 'nested rule\n', 'work/pkg/a.txt': 'alpha\n' })
    const read = [{ toolCalls: [{ name: 'read', arguments: { file_path: 'pkg/a.txt' } }] }, { text: 'alpha it is' }]
    const again = [{ text: 'still alpha' }]
    const options = (name: string, script: string): string[] => ['--dsh-home', tree?.path(name) ?? '', '--model', `scripted:${script}`, '--request-log', tree?.path(`${name}.jsonl`) ?? '']
    const first = await runDsh(['run', ...options('cli', writeScript(tree.root, 'first.json', { responses: read })), 'read pkg/a.txt'], { cwd: tree.path('work') })
    await runDsh(['run', ...options('cli', writeScript(tree.root, 'second.json', { responses: again })), '--resume', sessionIdOf(first.stderr), 'and now?'], { cwd: tree.path('work') })
    const acp = launch(options('acp', writeScript(tree.root, 'both.json', { responses: [...read, ...again] })), { cwd: tree.path('work'), home: tree.root })
    await initialize(acp)
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    for (const text of ['read pkg/a.txt', 'and now?']) await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })
    const cli = readRequests(tree.path('cli.jsonl'))
    expect(cli).toHaveLength(3)
    expect(readRequests(tree.path('acp.jsonl'))).toEqual(cli)
  })

  it('does not run a rejected bash command, cancels a slow one promptly, and ends its processes on SIGTERM', async () => {
    tree = await tempTree({ 'work/': null })
    // Unique sleep arguments: the sleepers are found from outside the sandbox by their command lines.
    const naps = [`61.${process.pid}`, `62.${process.pid}`]
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'touch rejected.txt' } }] }, { text: 'refused' }, ...naps.map((nap) => ({ toolCalls: [{ name: 'bash', arguments: { command: `echo $$ >> pids.txt; sleep ${nap}` } }] }))] })
    const answers = ['reject', 'allow-once', 'allow-once']
    const acp = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`], { cwd: tree.path('work'), home: tree.root, answer: () => answers.shift() ?? 'reject' })
    await initialize(acp)
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'touch' }] })).toEqual({ stopReason: 'end_turn' })
    expect(existsSync(tree.path('work/rejected.txt'))).toBe(false)
    const launched = (): number => (existsSync(tree?.path('work/pids.txt') ?? '') ? readFileSync(tree?.path('work/pids.txt') ?? '', 'utf8').split('\n').filter(Boolean).length : 0)
    const sleeper = (index: number): number => hostPidOf(['sleep', naps[index] ?? ''])
    const cancelled = acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] })
    await waitFor(() => launched() === 1 && sleeper(0) > 0)
    const first = sleeper(0)
    started.add(first)
    const before = Date.now()
    await acp.agent.notify('session/cancel', { sessionId })
    expect(await cancelled).toEqual({ stopReason: 'cancelled' })
    expect(Date.now() - before).toBeLessThan(10_000)
    await waitFor(() => !isAlive(first))
    const hanging = acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait again' }] }).catch(() => 'closed')
    await waitFor(() => launched() === 2 && sleeper(1) > 0)
    const second = sleeper(1)
    started.add(second)
    acp.child.kill('SIGTERM')
    expect(await acp.exited).toBe(143)
    await hanging
    await waitFor(() => !isAlive(second))
    expect(acp.questions).toEqual(['Run touch rejected.txt', `Run echo $$ >> pids.txt; sleep ${naps[0] ?? ''}`, `Run echo $$ >> pids.txt; sleep ${naps[1] ?? ''}`])
    jsonRpcLines(acp.stdout())
    expect(acp.stderr()).toBe('')
  })

  it('without bubblewrap: one warning on stderr, nothing but JSON-RPC on stdout, and every shell command asked about even after "allow always"', async () => {
    tree = await tempTree({ 'work/': null })
    const bin = tree.path('bin')
    mkdirSync(bin)
    symlinkSync(process.execPath, join(bin, 'node'))
    for (const tool of ['bash', 'sh', 'ls']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool))
    const script = writeScript(tree.root, 'script.json', { responses: [shell('ls -a'), shell('ls -l'), { text: 'listed' }, shell('ls -1'), { text: 'listed again' }] })
    const acp = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`], { cwd: tree.path('work'), home: tree.root, env: { PATH: bin }, answer: () => 'allow-always' })
    await initialize(acp)
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    for (const text of ['list', 'list again']) expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })).toEqual({ stopReason: 'end_turn' })
    expect(acp.questions).toEqual(['Run ls -a', 'Run ls -l', 'Run ls -1'])
    acp.child.stdin?.end()
    expect(await acp.exited).toBe(0)
    expect(acp.stderr()).toBe('warning: no sandbox for shell commands: bubblewrap (bwrap) is not installed; every shell command will ask before it runs unsandboxed\n')
    expect(jsonRpcLines(acp.stdout()).length).toBeGreaterThan(10)
    const decisions = readFileSync(tree.path(`home/sessions/${sessionId}.jsonl`), 'utf8').trim().split('\n').filter((line) => line.includes('"type":"tool/permission"'))
    expect(decisions.map((line): unknown => JSON.parse(line))).toMatchObject([{ data: { by: 'answer', remember: 'bash(ls:*)' } }, { data: { by: 'answer' } }, { data: { by: 'answer' } }])
  })

  it('exits promptly when the editor closes stdin during a running bash command, ending it and a background process an earlier prompt left running, with the turn closed as cancelled', async () => {
    tree = await tempTree({ 'work/': null })
    const naps = [`301.${process.pid}`, `63.${process.pid}`]
    const script = writeScript(tree.root, 'script.json', { responses: [shell(`sleep ${naps[0] ?? ''} > /dev/null 2>&1 & echo $! > bg.txt`), { text: 'left running' }, shell(`echo $$ > pid.txt; sleep ${naps[1] ?? ''}`)] })
    const acp = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`], { cwd: tree.path('work'), home: tree.root, answer: () => 'allow-once' })
    await initialize(acp)
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'start it' }] })).toEqual({ stopReason: 'end_turn' })
    expect(existsSync(tree.path('work/bg.txt'))).toBe(true)
    const background = hostPidOf(['sleep', naps[0] ?? ''])
    started.add(background)
    expect(isAlive(background)).toBe(true)
    const pending = acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] }).catch(() => 'closed')
    let sleeping = 0
    await waitFor(() => existsSync(tree?.path('work/pid.txt') ?? '') && (sleeping = hostPidOf(['sleep', naps[1] ?? ''])) > 0)
    const pid = (): number => sleeping
    started.add(pid())
    const before = Date.now()
    acp.child.stdin?.end()
    expect(await acp.exited).toBe(0)
    expect(Date.now() - before).toBeLessThan(10_000)
    await pending
    await waitFor(() => !isAlive(pid()) && !isAlive(background))
    const log = readFileSync(tree.path(`home/sessions/${sessionId}.jsonl`), 'utf8').trim().split('\n')
    expect(JSON.parse(log.at(-1) ?? '{}')).toMatchObject({ type: 'turn/end', data: { reason: 'cancelled' } })
  })

  it('a session answered in one process is loaded and answered by another at once, which replays its history first', async () => {
    tree = await tempTree({ 'work/a.txt': 'alpha\n' })
    const first = writeScript(tree.root, 'first.json', { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'a.txt' } }] }, { text: 'It says alpha.' }] })
    const second = writeScript(tree.root, 'second.json', { responses: [{ text: 'Still alpha.' }] })
    const one = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${first}`], { cwd: tree.path('work'), home: tree.root })
    await initialize(one)
    const { sessionId } = await one.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    await one.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read a' }] })
    const two = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${second}`], { cwd: tree.path('work'), home: tree.root })
    await initialize(two)
    expect((await two.agent.request('session/list', { cwd: tree.path('work') })).sessions.map((session) => session.sessionId)).toEqual([sessionId])
    expect(await two.agent.request('session/load', { sessionId, cwd: tree.path('work'), mcpServers: [] })).toEqual({ modes: expect.objectContaining({ currentModeId: 'ask' }) })
    // The replay ends with the session's command list (the built-in /rewind).
    expect(two.updates.map((note) => note.update.sessionUpdate)).toEqual(['user_message_chunk', 'tool_call', 'tool_call_update', 'agent_message_chunk', 'available_commands_update'])
    expect(await two.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'and now?' }] })).toEqual({ stopReason: 'end_turn' })
    expect(two.updates.at(-1)?.update).toEqual({ sessionUpdate: 'agent_message_chunk', messageId: expect.any(String), content: { type: 'text', text: 'Still alpha.' } })
  })

  it('a session answering in one process is refused by another with the process that holds it, and can be prompted there once it is idle', async () => {
    tree = await tempTree({ 'work/': null })
    const first = writeScript(tree.root, 'first.json', { responses: [shell('echo $$ > pid.txt; sleep 60'), { text: 'slept' }] })
    const second = writeScript(tree.root, 'second.json', { responses: [{ text: 'my turn' }] })
    const one = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${first}`], { cwd: tree.path('work'), home: tree.root, answer: () => 'allow-once' })
    await initialize(one)
    const { sessionId } = await one.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    const busy = one.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'sleep' }] })
    await waitFor(() => existsSync(tree?.path('work/pid.txt') ?? '') && readFileSync(tree?.path('work/pid.txt') ?? '', 'utf8') !== '')
    started.add(Number(readFileSync(tree.path('work/pid.txt'), 'utf8')))
    const two = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${second}`], { cwd: tree.path('work'), home: tree.root })
    await initialize(two)
    await two.agent.request('session/load', { sessionId, cwd: tree.path('work'), mcpServers: [] })
    const refused = await two.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'me too' }] }).catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: -32603, message: expect.stringMatching(new RegExp(`^session ${sessionId} is open in process ${String(one.child.pid)}`)) })
    await one.agent.notify('session/cancel', { sessionId })
    expect(await busy).toEqual({ stopReason: 'cancelled' })
    expect(await two.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'me now' }] })).toEqual({ stopReason: 'end_turn' })
  })

  it('runs two sessions with different working directories at once', async () => {
    tree = await tempTree({ 'a/': null, 'b/': null })
    const write = { toolCalls: [{ name: 'write', arguments: { file_path: 'out.txt', content: 'mine\n' } }] }
    const script = writeScript(tree.root, 'script.json', { responses: [write, write] })
    const acp = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--max-steps', '1'], { cwd: tree.root, home: tree.root })
    await initialize(acp)
    const sessions = await Promise.all(['a', 'b'].map((dir) => acp.agent.request('session/new', { cwd: tree?.path(dir) ?? '', mcpServers: [] })))
    const answers = await Promise.all(sessions.map(({ sessionId }) => acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write' }] })))
    expect(answers).toEqual([{ stopReason: 'max_turn_requests' }, { stopReason: 'max_turn_requests' }])
    expect([readFileSync(tree.path('a/out.txt'), 'utf8'), readFileSync(tree.path('b/out.txt'), 'utf8')]).toEqual(['mine\n', 'mine\n'])
  })
})
