// The ACP agent app driven in-process by the SDK's client app: initialize, prompts with their
// updates, additional directories, permission answers, cancel, load with replay, list, and two
// concurrent sessions with separate roots. Real host, real files, real processes; scripted model.
import type { RequestPermissionResponse } from '@agentclientprotocol/sdk'
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelScript } from '@dsh/llm-scripted'
import { tempTree, isProcessAlive, type TempTree } from '@dsh/testkit'
import { agentSide, answerOf, updatesOf, withClient, type AcpSide, type ClientSide } from './acp-harness.ts'

let tree: TempTree
let side: AcpSide | undefined
afterEach(async () => {
  await side?.dispose()
  side = undefined
  await tree?.dispose()
})

const allowOnce = { outcome: { outcome: 'selected', optionId: 'allow-once' } } as const

describe('initialize', () => {
  it('answers protocol 1 with loadSession, list, close, additional directories, prompt capabilities, MCP capabilities and agent info', async () => {
    tree = await tempTree({ 'work/': null })
    side = await agentSide({ dshHome: tree.path('home'), scripts: {} })
    const { value: answer } = await withClient(side.app, {}, (ctx) => ctx.request('initialize', { protocolVersion: 1, clientCapabilities: {} }))
    expect(answer).toEqual({
      protocolVersion: 1,
      agentCapabilities: { loadSession: true, promptCapabilities: { image: false, audio: false, embeddedContext: true }, mcpCapabilities: { http: false, sse: false }, sessionCapabilities: { additionalDirectories: {}, list: {}, close: {} } },
      agentInfo: { name: 'dsh', title: 'dsh', version: '0.0.0-test' },
      authMethods: [],
    })
  })
})

describe('session/prompt', () => {
  it('streams a nested read with its kind and absolute locations as the client spelled the cwd, and the nested instructions reach the next request', async () => {
    tree = await tempTree({ 'work/AGENTS.md': 'top rule\n', 'work/pkg/AGENTS.md': 'nested rule: use tabs\n', 'work/pkg/notes.txt': 'hello notes\n' })
    symlinkSync(tree.path('work'), tree.path('editor-link'))
    side = await agentSide({ dshHome: tree.path('home'), scripts: { [tree.path('work')]: { responses: [{ reasoning: 'look at notes', toolCalls: [{ name: 'read', arguments: { file_path: 'pkg/notes.txt' } }] }, { text: 'The notes say hello.' }] } } })
    const { value, seen } = await withClient(side.app, {}, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('editor-link'), mcpServers: [] })
      return { sessionId: created.sessionId, response: await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'what do the notes say?' }] }) }
    })
    const { sessionId, response } = value
    expect(response).toEqual({ stopReason: 'end_turn' })
    const updates = updatesOf(seen, sessionId)
    expect(updates.find((update) => update.sessionUpdate === 'agent_thought_chunk')).toEqual({ sessionUpdate: 'agent_thought_chunk', messageId: expect.stringMatching(/^[0-9a-f-]{36}$/), content: { type: 'text', text: 'look at notes' } })
    expect(updates.find((update) => update.sessionUpdate === 'tool_call')).toEqual({
      sessionUpdate: 'tool_call',
      toolCallId: '1.1/call_t1s1_1',
      title: 'Read pkg/notes.txt',
      kind: 'read',
      status: 'pending',
      locations: [{ path: tree.path('editor-link/pkg/notes.txt') }],
      rawInput: { file_path: 'pkg/notes.txt' },
    })
    const done = updates.find((update) => update.sessionUpdate === 'tool_call_update')
    expect(done).toMatchObject({ toolCallId: '1.1/call_t1s1_1', status: 'completed', locations: [{ path: tree.path('editor-link/pkg/notes.txt') }] })
    expect(JSON.stringify(done)).toContain('hello notes')
    expect(answerOf(seen, sessionId)).toBe('The notes say hello.')
    const second = JSON.stringify(side.requests[1]?.messages)
    expect(second).toContain('nested rule: use tabs')
    expect(JSON.stringify(side.requests[0]?.messages)).not.toContain('nested rule')
  })

  it('an automatic compaction in the middle of a prompt streams its checkpoint as a thought of its own', async () => {
    tree = await tempTree({ 'work/big.txt': 'a line of a large file\n'.repeat(400) })
    const read = { toolCalls: [{ name: 'read', arguments: { file_path: 'big.txt' } }] }
    side = await agentSide({ dshHome: tree.path('home'), autoCompact: { contextWindow: 8000, share: 0.5 }, scripts: { [tree.path('work')]: { responses: [read, read, read, { text: 'Read it.' }] } } })
    const { value: sessionId, seen } = await withClient(side.app, {}, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'read the big file' }] })
      return created.sessionId
    })
    const thoughts = updatesOf(seen, sessionId).filter((update) => update.sessionUpdate === 'agent_thought_chunk').map((update) => JSON.stringify(update))
    expect(thoughts.some((text) => text.includes('[Conversation checkpoint] The earlier part of this session was compacted.'))).toBe(true)
    expect(answerOf(seen, sessionId)).toBe('Read it.')
  })

  it('ends with max_turn_requests at the step limit', async () => {
    tree = await tempTree({ 'work/a.txt': 'a\n' })
    side = await agentSide({ dshHome: tree.path('home'), maxSteps: 1, scripts: { [tree.path('work')]: { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'a.txt' } }] }] } } })
    const { value: response } = await withClient(side.app, {}, async (ctx) => {
      const { sessionId } = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      return ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read a' }] })
    })
    expect(response).toEqual({ stopReason: 'max_turn_requests' })
  })

  it('ends with refusal when a guard blocks the turn before the model is called', async () => {
    tree = await tempTree({ 'work/': null })
    side = await agentSide({ dshHome: tree.path('home'), scripts: { [tree.path('work')]: { responses: [] } } })
    side.host.ctx.on('agent/pre-step', () => Promise.resolve({ kind: 'reject', reason: 'not today' } as const))
    const { value: response } = await withClient(side.app, {}, async (ctx) => {
      const { sessionId } = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      return ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })
    })
    expect(response).toEqual({ stopReason: 'refusal' })
    expect(side.requests).toEqual([])
  })

  it('shows an edit as ACP diff content of the whole file', async () => {
    tree = await tempTree({ 'work/src/app.ts': 'const a = 1\nconst b = 2\n' })
    side = await agentSide({ dshHome: tree.path('home'), scripts: { [tree.path('work')]: { responses: [{ toolCalls: [{ name: 'edit', arguments: { file_path: 'src/app.ts', old_string: 'const b = 2', new_string: 'const b = 3' } }] }, { text: 'edited' }] } } })
    const { value: sessionId, seen } = await withClient(side.app, {}, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'bump b' }] })
      return created.sessionId
    })
    const updates = updatesOf(seen, sessionId)
    expect(updates.find((update) => update.sessionUpdate === 'tool_call')).toMatchObject({ kind: 'edit', title: 'Edit src/app.ts' })
    const done = updates.find((update) => update.sessionUpdate === 'tool_call_update' && update.status === 'completed')
    expect(done).toMatchObject({ content: [{ type: 'diff', path: tree.path('work/src/app.ts'), oldText: 'const a = 1\nconst b = 2\n', newText: 'const a = 1\nconst b = 3\n' }, { type: 'content' }] })
  })
})

describe('additional directories', () => {
  it('become roots of that session only: writes land there, and an invalid one is an error naming it that creates no session', async () => {
    tree = await tempTree({ 'work/': null, 'lib/': null, 'elsewhere/': null })
    side = await agentSide({
      dshHome: tree.path('home'),
      scripts: { [tree.path('work')]: { responses: [{ toolCalls: [{ name: 'write', arguments: { file_path: tree.path('lib/made.txt'), content: 'in lib\n' } }, { name: 'write', arguments: { file_path: tree.path('elsewhere/no.txt'), content: 'no\n' } }] }, { text: 'wrote' }] } },
    })
    const host = side.host
    // Mode ask: writes outside the cwd are asked about (allowed once here); the one outside every root still fails.
    const { value, seen } = await withClient(side.app, { answer: () => ({ outcome: { outcome: 'selected', optionId: 'allow-once' } }) }, async (ctx) => {
      const refused = await ctx.request('session/new', { cwd: tree.path('work'), additionalDirectories: [tree.path('missing')], mcpServers: [] }).catch((error: unknown) => error)
      const before = host.sessions.list().length
      const created = await ctx.request('session/new', { cwd: tree.path('work'), additionalDirectories: [tree.path('lib')], mcpServers: [] })
      await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'write both' }] })
      return { sessionId: created.sessionId, refused, before }
    })
    const { sessionId, refused: refusal } = value
    expect(value.before).toBe(0)
    expect(refusal).toMatchObject({ code: -32602, message: expect.stringContaining(`additionalDirectories: ${tree.path('missing')}: missing`) })
    expect(readFileSync(tree.path('lib/made.txt'), 'utf8')).toBe('in lib\n')
    expect(existsSync(tree.path('elsewhere/no.txt'))).toBe(false)
    const statuses = updatesOf(seen, sessionId).flatMap((update) => (update.sessionUpdate === 'tool_call_update' ? [update.status] : []))
    // An approved call is marked in progress before it runs, then settles.
    expect(statuses).toEqual(['in_progress', 'completed', 'in_progress', 'failed'])
    expect(seen.permissions.map((question) => question.toolCall.title)).toEqual([`Write ${tree.path('lib/made.txt')}`, `Write ${tree.path('elsewhere/no.txt')}`])
  })
})

describe('permissions', () => {
  it('asks before bash with allow-once, allow-always and reject; a reject does not run it; allow-always is remembered across prompts', async () => {
    tree = await tempTree({ 'work/': null })
    side = await agentSide({
      dshHome: tree.path('home'),
      scripts: {
        [tree.path('work')]: {
          responses: [
            { toolCalls: [{ name: 'bash', arguments: { command: 'touch rejected.txt' } }] },
            { text: 'not run' },
            { toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] },
            { text: 'listed' },
            { toolCalls: [{ name: 'bash', arguments: { command: 'ls -a' } }] },
            { text: 'listed again' },
          ],
        },
      },
    })
    const answers: RequestPermissionResponse[] = [{ outcome: { outcome: 'selected', optionId: 'reject' } }, { outcome: { outcome: 'selected', optionId: 'allow-always' } }]
    const { seen, value: sessionId } = await withClient(side.app, { answer: () => answers.shift() ?? { outcome: { outcome: 'cancelled' } } }, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      for (const text of ['touch it', 'list', 'list all']) await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text }] })
      return created.sessionId
    })
    expect(existsSync(tree.path('work/rejected.txt'))).toBe(false)
    expect(seen.permissions.map((question) => question.toolCall.title)).toEqual(['Run touch rejected.txt', 'Run ls'])
    expect(seen.permissions[1]?.options).toEqual([
      { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'allow-always', name: 'Always allow "ls …" in this session', kind: 'allow_always' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ])
    const statuses = updatesOf(seen, sessionId).flatMap((update) => (update.sessionUpdate === 'tool_call_update' && update.status !== 'in_progress' ? [update.status] : []))
    expect(statuses).toEqual(['failed', 'completed', 'completed'])
  })
})

/** The `tool/permission` events of a stored session, without their envelope. */
const permissionEvents = (host: AcpSide['host'], sessionId: string): unknown[] => host.sessions.load(sessionId).events.flatMap((event) => (event.type === 'tool/permission' ? [event.data] : []))

const lsScript = (commands: readonly string[]): ModelScript => ({ responses: [{ toolCalls: [{ name: 'bash', arguments: { command: commands[0] } }] }, { toolCalls: [{ name: 'bash', arguments: { command: commands[1] } }] }, { text: 'listed twice' }, { toolCalls: [{ name: 'bash', arguments: { command: commands[2] } }] }, { text: 'listed again' }] })

describe('allow always and the permission policy', () => {
  it('with no sandbox, every shell command is asked about even after "allow always", in the same prompt and the next, each answer a tool/permission event', async () => {
    tree = await tempTree({ 'work/': null })
    side = await agentSide({ dshHome: tree.path('home'), sandbox: false, scripts: { [tree.path('work')]: lsScript(['ls -a', 'ls -l', 'ls -1']) } })
    const answers = ['allow-always', 'allow-once', 'reject']
    const { seen, value: sessionId } = await withClient(side.app, { answer: () => ({ outcome: { outcome: 'selected', optionId: answers.shift() ?? 'reject' } }) }, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      for (const text of ['list twice', 'list again']) await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text }] })
      return created.sessionId
    })
    expect(seen.permissions.map((question) => question.toolCall.title)).toEqual(['Run ls -a', 'Run ls -l', 'Run ls -1'])
    expect(permissionEvents(side.host, sessionId)).toEqual([
      { callId: 'call_t1s1_1', tool: 'bash', mode: 'ask', decision: 'allow', by: 'answer', remember: 'bash(ls:*)' },
      { callId: 'call_t1s2_1', tool: 'bash', mode: 'ask', decision: 'allow', by: 'answer' },
      { callId: 'call_t2s1_1', tool: 'bash', mode: 'ask', decision: 'deny', by: 'answer' },
    ])
  })

  it('with a sandbox, "allow always" is a session rule that a later prompt and another process (a new host loading the session) keep', async () => {
    tree = await tempTree({ 'work/': null })
    side = await agentSide({ dshHome: tree.path('home'), scripts: { [tree.path('work')]: lsScript(['ls -a', 'ls -l', 'ls -1']) } })
    const { seen, value: sessionId } = await withClient(side.app, { answer: () => ({ outcome: { outcome: 'selected', optionId: 'allow-always' } }) }, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      for (const text of ['list twice', 'list again']) await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text }] })
      return created.sessionId
    })
    expect(seen.permissions.map((question) => question.toolCall.title)).toEqual(['Run ls -a'])
    await side.dispose()
    side = await agentSide({ dshHome: tree.path('home'), scripts: { [tree.path('work')]: { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'ls -R' } }] }, { text: 'listed elsewhere' }] } } })
    const later = await withClient(side.app, {}, async (ctx) => {
      await ctx.request('session/load', { sessionId, cwd: tree.path('work'), mcpServers: [] })
      return ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'list elsewhere' }] })
    })
    expect(later.value).toEqual({ stopReason: 'end_turn' })
    expect(later.seen.permissions).toEqual([])
    expect(permissionEvents(side.host, sessionId)).toMatchObject([{ by: 'answer', remember: 'bash(ls:*)' }, { by: 'rule', rule: 'bash(ls:*)' }, { by: 'rule' }, { by: 'rule' }])
  })
})

/** The ids of the tool calls the client has been told about. */
const cardsOf = (seen: ClientSide): string[] => seen.updates.flatMap((note) => (note.update.sessionUpdate === 'tool_call' ? [note.update.toolCallId] : []))

/** The last `completed` / `failed` status of each tool call of a session. */
function finalStatuses(seen: ClientSide, sessionId: string): Record<string, string> {
  const statuses: Record<string, string> = {}
  for (const update of updatesOf(seen, sessionId)) if (update.sessionUpdate === 'tool_call_update' && (update.status === 'completed' || update.status === 'failed')) statuses[update.toolCallId] = update.status
  return statuses
}

describe('run_code', () => {
  it('a nested call asked about gets a card of its own before the question, and it finishes with its result', async () => {
    tree = await tempTree({ 'work/': null })
    const code = "const made = await tools.bash({ command: 'echo nested > n.txt' }); const refused = await tools.bash({ command: 'touch refused.txt' }); return 'done'"
    side = await agentSide({ dshHome: tree.path('home'), codeMode: true, scripts: { [tree.path('work')]: { responses: [{ toolCalls: [{ name: 'run_code', arguments: { code } }] }, { text: 'ran' }] } } })
    const answers = ['allow-once', 'allow-once', 'reject']
    const announced: boolean[] = []
    const { seen, value: sessionId } = await withClient(side.app, { answer: (question, sofar) => (announced.push(cardsOf(sofar).includes(question.toolCall.toolCallId)), { outcome: { outcome: 'selected', optionId: answers.shift() ?? 'reject' } }) }, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'run it' }] })
      return created.sessionId
    })
    expect(seen.permissions.map((question) => [question.toolCall.toolCallId, question.toolCall.title])).toEqual([
      ['1.1/call_t1s1_1', 'Run JavaScript (run_code)'],
      ['1.1/call_t1s1_1:code:1', 'Run echo nested > n.txt'],
      ['1.1/call_t1s1_1:code:2', 'Run touch refused.txt'],
    ])
    expect(announced).toEqual([true, true, true])
    expect(Object.keys(finalStatuses(seen, sessionId))).toEqual(['1.1/call_t1s1_1:code:1', '1.1/call_t1s1_1:code:2', '1.1/call_t1s1_1'])
    expect(finalStatuses(seen, sessionId)).toMatchObject({ '1.1/call_t1s1_1:code:1': 'completed', '1.1/call_t1s1_1:code:2': 'failed' })
    expect(readFileSync(tree.path('work/n.txt'), 'utf8')).toBe('nested\n')
    expect(existsSync(tree.path('work/refused.txt'))).toBe(false)
  })
})

describe('subagents', () => {
  it('a delegated grandchild asks its permission question through the session of the editor, about a card of its own that finishes', async () => {
    tree = await tempTree({ 'work/': null })
    const announced: boolean[] = []
    side = await agentSide({
      dshHome: tree.path('home'),
      subagents: true,
      scripts: {
        [tree.path('work')]: {
          responses: [
            { toolCalls: [{ name: 'subagent', arguments: { prompt: 'delegate further', description: 'Go deeper' } }] },
            { toolCalls: [{ name: 'subagent', arguments: { prompt: 'write deep.txt with bash', description: 'Write it' } }] },
            { toolCalls: [{ name: 'bash', arguments: { command: 'echo deep > deep.txt' } }] },
            { text: 'grandchild done' },
            { text: 'child done' },
            { text: 'parent done' },
          ],
        },
      },
    })
    const { seen, value: sessionId } = await withClient(side.app, { answer: (question, sofar) => (announced.push(cardsOf(sofar).includes(question.toolCall.toolCallId)), allowOnce) }, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'delegate' }] })
      return created.sessionId
    })
    expect(seen.permissions.map((question) => [question.sessionId, question.toolCall.title])).toEqual([[sessionId, 'Run echo deep > deep.txt']])
    expect(readFileSync(tree.path('work/deep.txt'), 'utf8')).toBe('deep\n')
    const cards = updatesOf(seen, sessionId).filter((update) => update.sessionUpdate === 'tool_call')
    expect(cards).toMatchObject([{ kind: 'think', title: 'Delegate: Go deeper' }, { kind: 'execute', title: 'Run echo deep > deep.txt' }])
    const [delegation, deep] = cards.map((card) => (card.sessionUpdate === 'tool_call' ? card.toolCallId : ''))
    expect(seen.permissions[0]?.toolCall.toolCallId).toBe(deep)
    expect(deep).not.toBe(delegation)
    expect(announced).toEqual([true])
    expect(finalStatuses(seen, sessionId)).toEqual({ [delegation ?? '']: 'completed', [deep ?? '']: 'completed' })
    expect(answerOf(seen, sessionId)).toBe('parent done')
  })
})

describe('session/cancel', () => {
  it('ends a slow bash step promptly: the prompt answers cancelled, the process is gone, the log closes the turn', async () => {
    tree = await tempTree({ 'work/': null })
    // The step sleeps far longer than the test may run: only the cancel can end it in time.
    side = await agentSide({ dshHome: tree.path('home'), scripts: { [tree.path('work')]: { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo $$ > pid.txt; sleep 600' } }] }] } } })
    const host = side.host
    const { value } = await withClient(side.app, { answer: () => allowOnce }, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      const prompt = ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'wait' }] })
      while (!existsSync(tree.path('work/pid.txt')) || readFileSync(tree.path('work/pid.txt'), 'utf8') === '') await new Promise((resolve) => setTimeout(resolve, 50))
      await ctx.notify('session/cancel', { sessionId: created.sessionId })
      return { response: await prompt, sessionId: created.sessionId }
    })
    const { response, sessionId } = value
    expect(response).toEqual({ stopReason: 'cancelled' })
    const pid = Number(readFileSync(tree.path('work/pid.txt'), 'utf8'))
    expect(isProcessAlive(pid)).toBe(false)
    const events = host.sessions.load(sessionId).events
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: 'cancelled' } })
  })
})

/** A promise and the function that settles it. */
function latch(): { readonly promise: Promise<void>; readonly resolve: () => void } {
  let settle: (() => void) | undefined
  const promise = new Promise<void>((resolve) => (settle = resolve))
  return { promise, resolve: () => settle?.() }
}

describe('a prompt sent right after session/cancel', () => {
  it('waits for the cancelled one to wind down and then runs, while a prompt during an uncancelled one is refused', async () => {
    tree = await tempTree({ 'work/': null })
    side = await agentSide({ dshHome: tree.path('home'), scripts: { [tree.path('work')]: { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo $$ > pid.txt; sleep 30' } }] }, { text: 'next answer' }] } } })
    const { value, seen } = await withClient(side.app, { answer: () => allowOnce }, async (ctx) => {
      const { sessionId } = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      const first = ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] })
      while (!existsSync(tree.path('work/pid.txt')) || readFileSync(tree.path('work/pid.txt'), 'utf8') === '') await new Promise((resolve) => setTimeout(resolve, 50))
      const refused = await ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'too soon' }] }).catch((error: unknown) => error)
      await ctx.notify('session/cancel', { sessionId })
      const next = ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'instead' }] })
      return { sessionId, refused, answers: await Promise.all([first, next]) }
    })
    expect(value.refused).toMatchObject({ code: -32600 })
    expect(value.answers).toEqual([{ stopReason: 'cancelled' }, { stopReason: 'end_turn' }])
    expect(answerOf(seen, value.sessionId)).toBe('next answer')
    expect(side.host.sessions.load(value.sessionId).events.filter((event) => event.type === 'turn/end')).toMatchObject([{ data: { reason: 'cancelled' } }, { data: { reason: 'completed' } }])
  })
})

describe('session/cancel while a permission question waits', () => {
  it('ends the turn cancelled; the call does not run and the model later reads that it was cancelled, not a user answer', async () => {
    tree = await tempTree({ 'work/': null })
    side = await agentSide({ dshHome: tree.path('home'), scripts: { [tree.path('work')]: { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'touch never.txt' } }] }, { text: 'understood' }] } } })
    const question = latch()
    const { value: sessionId } = await withClient(side.app, { answer: () => (question.resolve(), new Promise<never>(() => undefined)) }, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      const prompt = ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'touch it' }] })
      await question.promise
      await ctx.notify('session/cancel', { sessionId: created.sessionId })
      expect(await prompt).toEqual({ stopReason: 'cancelled' })
      expect(await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'what happened?' }] })).toEqual({ stopReason: 'end_turn' })
      return created.sessionId
    })
    expect(existsSync(tree.path('work/never.txt'))).toBe(false)
    const results = side.requests.at(-1)?.messages.filter((message) => message.role === 'tool').map((message) => message.content)
    expect(results).toEqual(['The bash call was cancelled before it ran.'])
    expect(side.host.sessions.load(sessionId).events.filter((event) => event.type === 'turn/end')).toMatchObject([{ data: { reason: 'cancelled' } }, { data: { reason: 'completed' } }])
  })
})

describe('session/load and session/list', () => {
  it('replays the visible history before answering, in another connection, and lists the session for its cwd', async () => {
    tree = await tempTree({ 'work/a.txt': 'alpha\n' })
    side = await agentSide({ dshHome: tree.path('home'), scripts: { [tree.path('work')]: { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'a.txt' } }] }, { text: 'It says alpha.' }, { text: 'Still alpha.' }] } } })
    const app = side.app
    const { value: sessionId } = await withClient(app, {}, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'read a' }] })
      return created.sessionId
    })
    const { value } = await withClient(app, {}, async (ctx, client) => {
      const list = await ctx.request('session/list', { cwd: tree.path('work') })
      const loaded = await ctx.request('session/load', { sessionId, cwd: tree.path('work'), mcpServers: [] })
      const replayed = client.updates.slice()
      return { loaded, replayed, list, again: await ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again?' }] }) }
    })
    const { loaded, list: listed, again: answered } = value
    const seen = { updates: value.replayed, permissions: [], reads: [], writes: [] }
    expect(loaded).toEqual({})
    expect(answered).toEqual({ stopReason: 'end_turn' })
    // The replay ends with the session's command list (the built-in /rewind).
    expect(updatesOf(seen, sessionId).map((update) => update.sessionUpdate)).toEqual(['user_message_chunk', 'tool_call', 'tool_call_update', 'agent_message_chunk', 'available_commands_update'])
    expect(updatesOf(seen, sessionId)[0]).toEqual({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'read a' } })
    expect(updatesOf(seen, sessionId)[1]).toMatchObject({ toolCallId: '1.1/call_t1s1_1', title: 'Read a.txt', kind: 'read', locations: [{ path: tree.path('work/a.txt') }] })
    expect(listed.sessions).toEqual([{ sessionId, cwd: tree.path('work'), title: 'read a', updatedAt: expect.any(String) }])
  })
})

/** Writes `mine` into each path in one step, then answers. */
const writeAll = (paths: readonly string[]): ModelScript => ({ responses: [{ delayMs: 20, toolCalls: paths.map((file_path) => ({ name: 'write', arguments: { file_path, content: 'mine\n' } })) }, { text: 'done' }] })

describe('concurrent sessions', () => {
  it('two sessions with different roots run at once, each writing only in its own', async () => {
    tree = await tempTree({ 'a/': null, 'b/': null, 'liba/': null })
    side = await agentSide({ dshHome: tree.path('home'), scripts: { [tree.path('a')]: writeAll(['out.txt', tree.path('liba/mine.txt'), tree.path('b/intrude.txt')]), [tree.path('b')]: writeAll(['out.txt', tree.path('liba/intrude.txt'), tree.path('a/intrude.txt')]) } })
    // Every question is allowed: only the roots of each session keep it out of the other's.
    const { value: answers, seen } = await withClient(side.app, { answer: () => allowOnce }, async (ctx) => {
      const a = await ctx.request('session/new', { cwd: tree.path('a'), additionalDirectories: [tree.path('liba')], mcpServers: [] })
      const b = await ctx.request('session/new', { cwd: tree.path('b'), mcpServers: [] })
      return Promise.all([a, b].map(({ sessionId }) => ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write' }] })))
    })
    expect(answers).toEqual([{ stopReason: 'end_turn' }, { stopReason: 'end_turn' }])
    expect(seen.permissions).toHaveLength(4)
    expect(['a/out.txt', 'b/out.txt', 'liba/mine.txt'].map((file) => readFileSync(tree.path(file), 'utf8'))).toEqual(['mine\n', 'mine\n', 'mine\n'])
    expect(['a/intrude.txt', 'b/intrude.txt', 'liba/intrude.txt'].map((file) => existsSync(tree.path(file)))).toEqual([false, false, false])
  })
})

describe('client filesystem', () => {
  it('reads and writes open buffers through the client when it advertises fs, and still refuses writes outside the roots', async () => {
    tree = await tempTree({ 'work/doc.txt': 'saved text\n', 'outside/': null })
    const buffers = new Map([[tree.path('work/doc.txt'), 'unsaved text\n']])
    side = await agentSide({
      dshHome: tree.path('home'),
      scripts: { [tree.path('work')]: { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'doc.txt' } }, { name: 'write', arguments: { file_path: 'doc.txt', content: 'new text\n' } }, { name: 'write', arguments: { file_path: tree.path('outside/x.txt'), content: 'x' } }] }, { text: 'ok' }] } },
    })
    // The write outside is allowed by the person (mode ask asks about it), so only the root check can stop it.
    const { seen, value: sessionId } = await withClient(side.app, { answer: () => allowOnce, buffers: { read: (path) => buffers.get(path) ?? readFileSync(path, 'utf8'), write: (path, content) => { buffers.set(path, content); writeFileSync(path, content) } } }, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'rewrite doc' }] })
      return created.sessionId
    })
    expect(JSON.stringify(side.requests[1]?.messages)).toContain('unsaved text')
    expect(seen.permissions.map((question) => question.toolCall.title)).toEqual([`Write ${tree.path('outside/x.txt')}`])
    expect(seen.writes).toEqual([{ path: tree.path('work/doc.txt'), content: 'new text\n' }])
    expect(existsSync(tree.path('outside/x.txt'))).toBe(false)
    const outside = updatesOf(seen, sessionId).findLast((update) => update.sessionUpdate === 'tool_call_update' && update.status === 'failed')
    expect(JSON.stringify(outside)).toContain('outside the writable roots')
  })
})

describe('errors a client gets', () => {
  it('names a session busy elsewhere, an unknown session, a load from another directory, and an empty prompt (no model call)', async () => {
    tree = await tempTree({ 'work/': null, 'other/': null })
    side = await agentSide({ dshHome: tree.path('home'), scripts: { [tree.path('work')]: { responses: [{ text: 'never' }] } } })
    const host = side.host
    const { value } = await withClient(side.app, {}, async (ctx) => {
      const { sessionId } = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      const held = host.sessions.open(sessionId)
      const busy = await ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] }).catch((error: unknown) => error)
      held.close()
      const unknown = await ctx.request('session/prompt', { sessionId: 'nope', prompt: [{ type: 'text', text: 'hi' }] }).catch((error: unknown) => error)
      const elsewhere = await ctx.request('session/load', { sessionId, cwd: tree.path('other'), mcpServers: [] }).catch((error: unknown) => error)
      const missing = await ctx.request('session/load', { sessionId: '20990101-000000-abcdef', cwd: tree.path('work'), mcpServers: [] }).catch((error: unknown) => error)
      const relative = await ctx.request('session/new', { cwd: 'work', mcpServers: [] }).catch((error: unknown) => error)
      const listed = await ctx.request('session/list', {})
      const empty = await ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: ' \n' }] }).catch((error: unknown) => error)
      return { sessionId, busy, unknown, elsewhere, missing, relative, listed, empty }
    })
    expect(value.busy).toMatchObject({ code: -32603, message: `session ${value.sessionId} is open in this process; close it there first (lock ${tree.path(`home/sessions/.locks/${value.sessionId}`)})` })
    expect(value.unknown).toMatchObject({ code: -32002 })
    expect(value.elsewhere).toMatchObject({ code: -32602, message: `Invalid params: cwd ${tree.path('other')}: session ${value.sessionId} works in ${tree.path('work')} (a session keeps its directory)` })
    expect(value.missing).toMatchObject({ code: -32002, message: expect.stringContaining('session 20990101-000000-abcdef cannot be loaded') })
    expect(value.relative).toMatchObject({ code: -32602, message: 'Invalid params: cwd work: not an absolute path' })
    expect(value.listed).toEqual({ sessions: [] })
    expect(value.empty).toMatchObject({ code: -32602, message: 'Invalid params: prompt: the prompt is empty: say what the agent should do' })
    expect(side.requests).toEqual([])
  })
})
