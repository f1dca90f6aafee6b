// The todo list through the built binary with the scripted model: dsh chat (piped) prints each
// list under its call; a rewind takes the later list back and a compaction brings the earlier one
// back to the model as a reminder; an editor on dsh acp gets each list as an agent plan, live and
// when it loads the session (a compacted one replays its checkpoint as a thought, then the list).
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { spawnAcp, type AcpProcess } from './acp-driver.ts'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, runDsh, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
let acp: AcpProcess[] = []
afterEach(async () => {
  for (const child of acp) child.child.kill('SIGKILL')
  acp = []
  await tree?.dispose()
})

const first = [
  { content: 'Find the bug', status: 'in_progress' },
  { content: 'Fix it', status: 'pending' },
] as const
const second = [
  { content: 'Find the bug', status: 'completed' },
  { content: 'Rewrite everything', status: 'in_progress' },
] as const
/** The ACP plan update of a list. */
const entries = (todos: readonly { content: string; status: string }[]) => ({ sessionUpdate: 'plan', entries: todos.map((item) => ({ ...item, priority: 'medium' })) })
const write = (todos: readonly { content: string; status: string }[]) => ({ toolCalls: [{ name: 'todo_write', arguments: { todos } }] })

describe('the todo list end to end', () => {
  it('dsh chat shows each list; after a rewind and a compaction the model is reminded of the list from before the rewound turn', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'chat.json', { responses: [write(first), { text: 'planned' }, write(second), { text: 'replanned' }, { text: 'Summary: a bug is being fixed.' }, { text: 'going on' }] })
    const log = tree.path('requests.jsonl')
    const input = 'plan the fix\nchange the plan\n/rewind 2 yes\n/compact\ngo on\n/todos\n/exit\n'
    const result = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log], input, { cwd: tree.root })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('→ todo_write\n  ✓ 0 of 2 completed\n    ▸ Find the bug\n    ○ Fix it\n')
    expect(result.stdout).toContain('    ✔ Find the bug\n    ▸ Rewrite everything\n')
    expect(result.stdout).toContain('todo list: 0 of 2 completed\n  ▸ Find the bug\n  ○ Fix it\n')
    const last = readRequests(log).at(-1)
    const users = (last?.messages ?? []).filter((message) => message.role === 'user').map((message) => message.content ?? '')
    expect(users.at(-2)).toBe('go on')
    expect(users.at(-1)).toBe(
      '<system-reminder>\nThe todo list you kept before the conversation was compacted (0 of 2 completed). Keep it up to date with todo_write:\n[>] Find the bug\n[ ] Fix it\n</system-reminder>',
    )
    expect(JSON.stringify(last?.messages)).not.toContain('Rewrite everything')
  })

  it('dsh acp sends each list as the agent plan, and a session loaded in another process ends its replay with it', async () => {
    tree = await tempTree({ 'work/.git/': null })
    const script = writeScript(tree.root, 'one.json', { responses: [write(first), write(second), { text: 'done' }] })
    const one = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`], { cwd: tree.path('work'), home: tree.root })
    acp.push(one)
    await one.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await one.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    await one.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'plan' }] })
    const plans = one.updates.map((note) => note.update).filter((update) => update.sessionUpdate === 'plan')
    expect(plans).toEqual([entries(first), entries(second)])
    const two = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${writeScript(tree.root, 'two.json', { responses: [] })}`], { cwd: tree.path('work'), home: tree.root })
    acp.push(two)
    await two.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    await two.agent.request('session/load', { sessionId, cwd: tree.path('work'), mcpServers: [] })
    const replayed = two.updates.map((note) => note.update).filter((update) => update.sessionUpdate === 'plan')
    expect(replayed).toEqual([entries(second)])
    two.child.kill('SIGKILL')
    // Compacted at rest: the replay is the checkpoint (as a thought, not as something the person
    // typed), then the list the log keeps although its todo_write calls are summarised away.
    const compacted = await runDsh(['--dsh-home', tree.path('home'), 'compact', sessionId], { cwd: tree.path('work') })
    expect(compacted.code, compacted.stderr).toBe(0)
    const three = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${writeScript(tree.root, 'three.json', { responses: [] })}`], { cwd: tree.path('work'), home: tree.root })
    acp.push(three)
    await three.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    await three.agent.request('session/load', { sessionId, cwd: tree.path('work'), mcpServers: [] })
    const afterCompaction = three.updates.map((note) => note.update).filter((update) => update.sessionUpdate !== 'available_commands_update')
    expect(afterCompaction.map((update) => update.sessionUpdate)).toEqual(['agent_thought_chunk', 'plan'])
    expect(afterCompaction[0]).toMatchObject({ content: { type: 'text', text: expect.stringMatching(/^\[Conversation checkpoint\] The earlier part of this session was compacted\. Summary of what happened before:\n\nUser: plan\n/) } })
    expect(afterCompaction[1]).toEqual(entries(second))
  })
})
