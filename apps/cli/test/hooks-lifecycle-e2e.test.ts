// The hook events around a session's life, end to end through the built binary with real shell
// hooks: PreCompact (manual /compact stopped and let through; automatic compaction reported, not
// stopped), RootChanged (an additional root goes missing, comes back, is added and removed),
// InstructionsLoaded runs recorded in the stream, SessionEnd in dsh acp (session/close, stdin EOF,
// SIGTERM) and dsh web (SIGTERM), and a subagent's events in stream-json with SubagentStop.
import { afterEach, describe, expect, it } from 'vitest'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { spawnAcp, type AcpProcess } from './acp-driver.ts'
import { dshBinary, readRequests, runDsh, sessionIdOf, writeScript } from './run-dsh.ts'
import { checkedLines } from './stream-json-check.ts'
import { startWeb, type WebProcess } from './web-harness.ts'

let tree: TempTree | undefined
const acps: AcpProcess[] = []
const webs: WebProcess[] = []
afterEach(async () => {
  for (const acp of acps.splice(0)) {
    if (acp.child.exitCode === null && acp.child.signalCode === null) acp.child.kill('SIGKILL')
    await acp.exited
  }
  for (const web of webs.splice(0)) await web.stop()
  await tree?.dispose()
  tree = undefined
})

const command = (text: string) => ({ type: 'command', command: text })

/** A field of an object value (undefined for anything else). */
const field = (value: unknown, name: string): unknown => (typeof value === 'object' && value !== null ? Object.entries(value).find(([key]) => key === name)?.[1] : undefined)

/** True for a hooks/run line of `event`. */
const isRunOf = (line: { readonly type: string; readonly [key: string]: unknown }, event: string): boolean => line.type === 'hooks/run' && field(line['data'], 'event') === event

const endHook = (file: string) => ({ hooks: { SessionEnd: [{ hooks: [command(`jq -c '{hook_event_name, session_id, reason}' >> ${file}`)] }] } })

/** The JSON lines a hook appended to `file`. */
function jsonLines(file: string): unknown[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((line): unknown => JSON.parse(line))
}

async function workspace(files: Record<string, string | null> = {}) {
  const t = await tempTree({ 'repo/notes.txt': 'alpha\n', 'scripts/': null, ...files })
  tree = t
  return { t, repo: t.path('repo'), home: t.path('home'), config: t.path('dsh.yaml') }
}

describe('PreCompact hooks', { timeout: 120_000 }, () => {
  it('a manual /compact is stopped by exit 2 with the reason shown, and goes on when the hook lets it; stdin has trigger and custom_instructions', async () => {
    const { t, repo, home, config } = await workspace()
    const hook = `input=$(cat); echo "$input" | jq -c '{hook_event_name, trigger, custom_instructions}' >> ${t.path('compact.jsonl')}; echo "$input" | grep -q 'not yet' && { echo 'the release notes are not summarised yet' >&2; exit 2; }; exit 0`
    writeFileSync(config, JSON.stringify({ hooks: { PreCompact: [{ hooks: [command(hook)] }] } }))
    const script = writeScript(t.path('scripts'), 'chat.json', { responses: [{ text: 'first answer' }] })
    const result = await runDsh(['--dsh-home', home, 'chat', '--cwd', repo, '--config', config, '--model', `scripted:${script}`], { cwd: t.root, input: 'one\n/compact not yet\n/compact keep the numbers\n' })
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('compaction stopped by a PreCompact hook: the release notes are not summarised yet')
    expect(result.stdout).toMatch(/compacted: \d+ visible messages -> 1/)
    expect(jsonLines(t.path('compact.jsonl'))).toEqual([
      { hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: 'not yet' },
      { hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: 'keep the numbers' },
    ])
    // Both runs and the block are in the session log.
    const log = readFileSync(t.path(`home/sessions/${sessionIdOf(result.stderr)}.jsonl`), 'utf8')
    expect(log.match(/"type":"hooks\/run","seq":\d+,"time":"[^"]+","data":\{"event":"PreCompact"/g)).toHaveLength(2)
    expect(log).toContain('"data":{"event":"PreCompact","decision":"block","reason":"the release notes are not summarised yet"}')
  })

  it('dsh compact ID runs PreCompact too: a block stops it with exit 1, recorded in the log; without the block it compacts', async () => {
    const { t, repo, home, config } = await workspace()
    const script = writeScript(t.path('scripts'), 'model.json', { responses: [{ text: 'first answer' }] })
    const first = await runDsh(['--dsh-home', home, 'run', '--cwd', repo, '--model', `scripted:${script}`, 'one'], { cwd: t.root })
    const id = sessionIdOf(first.stderr)
    writeFileSync(config, JSON.stringify({ hooks: { PreCompact: [{ hooks: [command(`cat > ${t.path('compact.json')}; test -e ${t.path('allow')} || { echo 'not before the review' >&2; exit 2; }`)] }] } }))
    const stopped = await runDsh(['--dsh-home', home, 'compact', id, '--config', config], { cwd: t.root })
    expect(stopped).toMatchObject({ code: 1, stdout: '' })
    expect(stopped.stderr).toContain(`dsh: compaction of ${id} stopped by a PreCompact hook: not before the review`)
    expect(JSON.parse(readFileSync(t.path('compact.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PreCompact', session_id: id, cwd: repo, trigger: 'manual', custom_instructions: '' })
    expect(readFileSync(t.path(`home/sessions/${id}.jsonl`), 'utf8')).toContain('"data":{"event":"PreCompact","decision":"block","reason":"not before the review"}')
    writeFileSync(t.path('allow'), '')
    const compacted = await runDsh(['--dsh-home', home, 'compact', id, '--config', config], { cwd: t.root })
    expect(compacted).toMatchObject({ code: 0, stdout: `compacted ${id}: 2 visible messages -> 1\n` })
  })

  it('an automatic compaction runs PreCompact with trigger auto and is not stopped by it', async () => {
    const { t, repo, home, config } = await workspace({ 'repo/.git/': null })
    writeFileSync(config, JSON.stringify({ model: { contextWindow: 10_000 }, hooks: { PreCompact: [{ hooks: [command(`jq -c '{trigger, custom_instructions}' >> ${t.path('compact.jsonl')}; echo 'please keep everything' >&2; exit 2`)] }] } }))
    const base = ['--dsh-home', home, 'run', '--cwd', repo, '--config', config, '--request-log', t.path('requests.jsonl')]
    const first = await runDsh([...base, '--model', `scripted:${writeScript(t.root, 'first.json', { responses: [{ text: 'got it' }] })}`, '-'], { cwd: t.root, input: `remember ${'x'.repeat(60_000)}` })
    expect(first.code).toBe(0)
    const second = await runDsh([...base, '--model', `scripted:${writeScript(t.root, 'second.json', { responses: [{ text: 'and more' }] })}`, '--resume', sessionIdOf(first.stderr), 'and?'], { cwd: t.root })
    expect(second).toMatchObject({ code: 0, stdout: 'and more\n' })
    expect(second.stderr).toContain('automatic compaction goes on although a PreCompact hook asked to stop it (automatic compaction cannot be stopped): please keep everything')
    expect(jsonLines(t.path('compact.jsonl'))).toEqual([{ trigger: 'auto', custom_instructions: '' }])
    const last = readRequests(t.path('requests.jsonl')).at(-1)
    expect(last?.messages.some((message) => message.role === 'user' && (message.content ?? '').startsWith('[Conversation checkpoint]'))).toBe(true)
  })
})

describe('RootChanged and InstructionsLoaded hooks', { timeout: 120_000 }, () => {
  it('RootChanged runs once per change of an additional root: missing, back, added, removed; the runs are in the stream', async () => {
    const { t, repo, home, config } = await workspace({ 'lib/': null, 'other/': null })
    expect((await runDsh(['--dsh-home', home, 'roots', 'add', t.path('lib'), '--cwd', repo], { cwd: t.root })).code).toBe(0)
    // Outside the sandbox, a PostToolUse hook changes the roots after each call.
    const dsh = `"${dshBinary}" --dsh-home "${home}"`
    const mover = [
      '#!/bin/sh',
      `n=$(cat "${t.path('count')}" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${t.path('count')}"`,
      'case $n in',
      `  1) mv "${t.path('lib')}" "${t.path('lib.away')}" ;;`,
      `  2) mv "${t.path('lib.away')}" "${t.path('lib')}" ;;`,
      `  3) ${dsh} roots add "${t.path('other')}" --cwd "${repo}" > /dev/null ;;`,
      `  4) ${dsh} roots remove "${t.path('other')}" --cwd "${repo}" > /dev/null ;;`,
      'esac',
      '',
    ].join('\n')
    writeFileSync(t.path('scripts/mover.sh'), mover)
    chmodSync(t.path('scripts/mover.sh'), 0o755)
    writeFileSync(config, JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Read', hooks: [command(t.path('scripts/mover.sh'))] }], RootChanged: [{ hooks: [command(`jq -c '{hook_event_name, change, previousState, path: .root.path, state: .root.state}' >> ${t.path('roots.jsonl')}`)] }] } }))
    const read = { toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }
    const script = writeScript(t.path('scripts'), 'model.json', { responses: [read, read, read, read, { text: 'done' }] })
    const result = await runDsh(['--dsh-home', home, 'run', '--cwd', repo, '--config', config, '--model', `scripted:${script}`, '--output-format', 'stream-json', 'go'], { cwd: t.root })
    expect(result.code).toBe(0)
    expect(jsonLines(t.path('roots.jsonl'))).toEqual([
      { hook_event_name: 'RootChanged', change: 'missing', previousState: 'available', path: t.path('lib'), state: 'missing' },
      { hook_event_name: 'RootChanged', change: 'available', previousState: 'missing', path: t.path('lib'), state: 'available' },
      { hook_event_name: 'RootChanged', change: 'added', previousState: null, path: t.path('other'), state: 'available' },
      { hook_event_name: 'RootChanged', change: 'removed', previousState: 'available', path: t.path('other'), state: 'available' },
    ])
    const lines = checkedLines(result.stdout)
    const types = lines.map((line) => line.type)
    const runs = lines.filter((line) => isRunOf(line, 'RootChanged'))
    expect(runs).toHaveLength(4)
    expect(types.lastIndexOf('hooks/run')).toBeLessThan(types.indexOf('turn/end'))
  })

  it('InstructionsLoaded gets the delivered files, and its run is a hooks/run line before the turn ends', async () => {
    const { t, repo, home, config } = await workspace({ 'repo/AGENTS.md': 'Answer in one line.\n' })
    writeFileSync(config, JSON.stringify({ hooks: { InstructionsLoaded: [{ hooks: [command(`cat > ${t.path('loaded.json')}`)] }] } }))
    const script = writeScript(t.path('scripts'), 'model.json', { responses: [{ text: 'ok' }] })
    const result = await runDsh(['--dsh-home', home, 'run', '--cwd', repo, '--config', config, '--model', `scripted:${script}`, '--output-format', 'stream-json', 'go'], { cwd: t.root })
    expect(result.code).toBe(0)
    expect(JSON.parse(readFileSync(t.path('loaded.json'), 'utf8'))).toMatchObject({ hook_event_name: 'InstructionsLoaded', load_reason: 'session_start', file_paths: ['AGENTS.md'] })
    const lines = checkedLines(result.stdout)
    const run = lines.findIndex((line) => isRunOf(line, 'InstructionsLoaded'))
    expect(lines[run]?.['data']).toMatchObject({ event: 'InstructionsLoaded', outcome: 'ok', exitCode: 0 })
    expect(run).toBeGreaterThan(0)
    expect(run).toBeLessThan(lines.findIndex((line) => line.type === 'turn/end'))
  })
})

/** `dsh web` with the hooks `hooksIn` gives for its tree in its config, and a one-answer model; the id of its one session. */
async function webWith(hooksIn: (tree: TempTree) => unknown, env: Record<string, string> = {}) {
  const { t, repo, home, config } = await workspace()
  writeFileSync(config, JSON.stringify(hooksIn(t)))
  const script = writeScript(t.path('scripts'), 'model.json', { responses: [{ text: 'answer' }] })
  const web = await startWeb(['--config', config, '--model', `scripted:${script}`], { cwd: repo, home, env })
  webs.push(web)
  const ids = (await web.api<{ sessions: { id: string }[] }>('GET', '/api/sessions')).body.sessions.map((session) => session.id)
  expect(ids).toHaveLength(1)
  return { t, web, id: ids[0] ?? '' }
}

/** A Notification hook that appends what it hears about idle_prompt to `idle.jsonl` of the tree. */
const idleHook = (at: TempTree) => ({ hooks: { Notification: [{ matcher: 'idle_prompt', hooks: [command(`jq -c '{notification_type, message, session_id}' >> ${at.path('idle.jsonl')}`)] }] } })

describe('SessionEnd in dsh acp and dsh web', { timeout: 120_000 }, () => {
  it('dsh acp: session/close runs SessionEnd for that session; stdin EOF runs it for the sessions still open', async () => {
    const { t, repo, home, config } = await workspace()
    writeFileSync(config, JSON.stringify(endHook(t.path('ends.jsonl'))))
    const script = writeScript(t.path('scripts'), 'model.json', { responses: [{ text: 'answer' }] })
    const acp = spawnAcp(['--dsh-home', home, '--config', config, '--model', `scripted:${script}`], { cwd: repo, home: t.root })
    acps.push(acp)
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const first = await acp.agent.request('session/new', { cwd: repo, mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId: first.sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({ stopReason: 'end_turn' })
    const second = await acp.agent.request('session/new', { cwd: repo, mcpServers: [] })
    await acp.agent.request('session/close', { sessionId: first.sessionId })
    expect(jsonLines(t.path('ends.jsonl'))).toEqual([{ hook_event_name: 'SessionEnd', session_id: first.sessionId, reason: 'other' }])
    acp.child.stdin?.end()
    expect(await acp.exited).toBe(0)
    expect(jsonLines(t.path('ends.jsonl'))).toEqual([
      { hook_event_name: 'SessionEnd', session_id: first.sessionId, reason: 'other' },
      { hook_event_name: 'SessionEnd', session_id: second.sessionId, reason: 'other' },
    ])
  })

  it('dsh acp: a session left waiting after a prompt is an idle_prompt Notification, once (what stops the wait: packages/acp idle-wait.test.ts)', async () => {
    const { t, repo, home, config } = await workspace()
    const heard = t.path('idle.jsonl')
    writeFileSync(config, JSON.stringify({ hooks: { Notification: [{ matcher: 'idle_prompt', hooks: [command(`jq -c '{notification_type, message, session_id}' >> ${heard}`)] }] } }))
    const script = writeScript(t.path('scripts'), 'model.json', { responses: [{ text: 'one' }, { text: 'two' }] })
    const acp = spawnAcp(['--dsh-home', home, '--config', config, '--model', `scripted:${script}`], { cwd: repo, home: t.root, env: { DSH_IDLE_NOTIFY_MS: '300' } })
    acps.push(acp)
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: repo, mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({ stopReason: 'end_turn' })
    await expect.poll(() => (existsSync(heard) ? jsonLines(heard) : []), { timeout: 20_000 }).toEqual([{ notification_type: 'idle_prompt', message: 'dsh is waiting for your input', session_id: sessionId }])
    // Once per wait: it is not repeated while the session keeps waiting.
    await new Promise((resolve) => setTimeout(resolve, 900))
    expect(jsonLines(heard)).toHaveLength(1)
  })

  it('dsh acp: SIGTERM runs SessionEnd for the open session before it exits', async () => {
    const { t, repo, home, config } = await workspace()
    writeFileSync(config, JSON.stringify(endHook(t.path('ends.jsonl'))))
    const script = writeScript(t.path('scripts'), 'model.json', { responses: [{ text: 'answer' }] })
    const acp = spawnAcp(['--dsh-home', home, '--config', config, '--model', `scripted:${script}`], { cwd: repo, home: t.root })
    acps.push(acp)
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: repo, mcpServers: [] })
    acp.child.kill('SIGTERM')
    expect(await acp.exited).toBe(143)
    expect(jsonLines(t.path('ends.jsonl'))).toEqual([{ hook_event_name: 'SessionEnd', session_id: sessionId, reason: 'other' }])
  })

  it('dsh web: SIGTERM runs SessionEnd for each live session, recorded in its log', async () => {
    const { t, web, id } = await webWith((at) => endHook(at.path('ends.jsonl')))
    const ids = [id]
    expect(await web.stop()).toBe(143)
    expect(jsonLines(t.path('ends.jsonl'))).toEqual([{ hook_event_name: 'SessionEnd', session_id: ids[0], reason: 'other' }])
    expect(readFileSync(t.path(`home/sessions/${ids[0] ?? ''}.jsonl`), 'utf8')).toContain('"data":{"event":"SessionEnd"')
  })

  it('dsh web: closing a session on the page runs its SessionEnd then, not at the stop', async () => {
    const { t, web, id } = await webWith((at) => endHook(at.path('ends.jsonl')))
    expect((await web.api('POST', `/api/sessions/${id}/close`, {})).status).toBe(200)
    expect(jsonLines(t.path('ends.jsonl'))).toEqual([{ hook_event_name: 'SessionEnd', session_id: id, reason: 'other' }])
    expect(await web.stop()).toBe(143)
    // The closed session is not ended a second time when the server stops.
    expect(jsonLines(t.path('ends.jsonl'))).toHaveLength(1)
  })

  it('dsh web: a session left waiting after a turn is an idle_prompt Notification, once; none before its first turn', async () => {
    const { t, web, id } = await webWith(idleHook, { DSH_IDLE_NOTIFY_MS: '300' })
    const heard = t.path('idle.jsonl')
    // Before any turn nothing waits for an answer to a question of the agent's: no notice.
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(existsSync(heard)).toBe(false)
    expect((await web.api('POST', `/api/sessions/${id}/prompt`, { text: 'hi' })).status).toBe(202)
    await expect.poll(() => (existsSync(heard) ? jsonLines(heard) : []), { timeout: 20_000 }).toEqual([{ notification_type: 'idle_prompt', message: 'dsh is waiting for your input', session_id: id }])
    // Once per wait: it is not repeated while the session keeps waiting.
    await new Promise((resolve) => setTimeout(resolve, 900))
    expect(jsonLines(heard)).toHaveLength(1)
  })
})

describe('subagents in stream-json', { timeout: 120_000 }, () => {
  it("a subagent's events are lines marked with its session and the parent's call id; SubagentStop runs in its session", async () => {
    const { t, repo, home, config } = await workspace()
    writeFileSync(config, JSON.stringify({ hooks: { SubagentStop: [{ hooks: [command(`jq -c '{hook_event_name, session_id}' >> ${t.path('stops.jsonl')}`)] }] } }))
    const script = writeScript(t.path('scripts'), 'model.json', {
      responses: [{ toolCalls: [{ name: 'subagent', arguments: { prompt: 'Read notes.txt.' } }] }, { toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'it says alpha' }, { text: 'alpha' }],
    })
    const result = await runDsh(['--dsh-home', home, 'run', '--cwd', repo, '--config', config, '--model', `scripted:${script}`, '--output-format', 'stream-json', 'go'], { cwd: t.root })
    expect(result.code).toBe(0)
    const lines = checkedLines(result.stdout)
    const id = lines[0]?.['session_id']
    expect(lines.every((line) => line['session_id'] === id)).toBe(true)
    const marked = lines.filter((line) => line['subagent'] !== undefined)
    const child = field(marked[0]?.['subagent'], 'session_id')
    expect(marked.map((line) => line['subagent'])).toEqual(marked.map(() => ({ session_id: child, parent_session_id: id, parent_tool_use_id: 'call_t1s1_1', depth: 1 })))
    const childTypes = marked.map((line) => line.type)
    for (const type of ['turn/start', 'tool/call', 'tool/result', 'assistant/message', 'hooks/run', 'turn/end']) expect(childTypes).toContain(type)
    expect(marked.find((line) => line.type === 'hooks/run')?.['data']).toMatchObject({ event: 'SubagentStop', outcome: 'ok' })
    expect(jsonLines(t.path('stops.jsonl'))).toEqual([{ hook_event_name: 'SubagentStop', session_id: child }])
    // The child's lines come before the parent's result of the subagent call.
    const parentResult = lines.findIndex((line) => line.type === 'tool/result' && line['subagent'] === undefined)
    expect(lines.findIndex((line) => line['subagent'] !== undefined)).toBeLessThan(parentResult)
    expect(lines.at(-1)).toMatchObject({ type: 'result', is_error: false, result: 'alpha' })
  })
})
