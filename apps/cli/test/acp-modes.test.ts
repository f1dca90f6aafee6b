// The editor's mode picker over `dsh acp` (ACP session modes), driven by the ACP SDK's client
// against the built binary with a scripted model: the session answers list the permission modes a
// session can switch to, `session/set_mode` switches one (and a subagent it delegates to follows),
// refuses a mode of another sandbox shape or an unknown one, and a loaded session reports the mode
// in force.
import { existsSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { spawnAcp, type AcpProcess } from './acp-driver.ts'
import { writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
const running: AcpProcess[] = []
afterEach(async () => {
  for (const acp of running.splice(0)) acp.child.kill('SIGKILL')
  await tree?.dispose()
  tree = undefined
})

const shell = (command: string) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] })

const picker = [
  { id: 'ask', name: 'Ask', description: 'ask before bash, run_code, web_fetch' },
  { id: 'auto-edit', name: 'Auto-edit', description: 'auto-edit (ask before bash, run_code, web_fetch)' },
  { id: 'full-auto', name: 'Full auto', description: 'full-auto (shell sandboxed)' },
]

describe('dsh acp session modes', () => {
  it('offers the switchable modes, and set_mode ask makes the session and the subagent it starts ask before bash', async () => {
    tree = await tempTree({ 'work/': null })
    const script = writeScript(tree.root, 'script.json', {
      responses: [shell('echo parent > parent.txt'), { toolCalls: [{ name: 'subagent', arguments: { prompt: 'write child.txt with bash' } }] }, shell('echo child > child.txt'), { text: 'child done' }, { text: 'done' }],
    })
    const acp = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--permission-mode', 'full-auto'], { cwd: tree.path('work'), home: tree.root })
    running.push(acp)
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const opened = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    expect(opened.modes).toEqual({ currentModeId: 'full-auto', availableModes: picker })
    expect(await acp.agent.request('session/set_mode', { sessionId: opened.sessionId, modeId: 'ask' })).toEqual({})
    expect(await acp.agent.request('session/prompt', { sessionId: opened.sessionId, prompt: [{ type: 'text', text: 'write both files' }] })).toEqual({ stopReason: 'end_turn' })
    // Both shell calls were asked about (and rejected by the test editor): nothing was written.
    expect(acp.questions).toHaveLength(2)
    expect(acp.questions.join('\n')).toContain('echo parent > parent.txt')
    expect(acp.questions.join('\n')).toContain('echo child > child.txt')
    expect(existsSync(tree.path('work/parent.txt'))).toBe(false)
    expect(existsSync(tree.path('work/child.txt'))).toBe(false)
    const loaded = await acp.agent.request('session/load', { sessionId: opened.sessionId, cwd: tree.path('work'), mcpServers: [] })
    expect(loaded.modes).toEqual({ currentModeId: 'ask', availableModes: picker })
  })

  it('refuses a mode of another sandbox shape, an unknown mode and an unknown session, changing nothing', async () => {
    tree = await tempTree({ 'work/': null })
    const script = writeScript(tree.root, 'script.json', { responses: [shell('echo ran > ran.txt'), { text: 'done' }] })
    const acp = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--permission-mode', 'full-auto'], { cwd: tree.path('work'), home: tree.root })
    running.push(acp)
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    await expect(acp.agent.request('session/set_mode', { sessionId, modeId: 'danger-full-access' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('mode danger-full-access: this session can switch to ask, auto-edit, full-auto') })
    await expect(acp.agent.request('session/set_mode', { sessionId, modeId: 'yolo' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('mode yolo: this session can switch to ask, auto-edit, full-auto') })
    await expect(acp.agent.request('session/set_mode', { sessionId: 'no-such-session', modeId: 'ask' })).rejects.toMatchObject({ code: -32002, data: { sessionId: 'no-such-session' } })
    // Still full-auto: the command runs without a question.
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run it' }] })).toEqual({ stopReason: 'end_turn' })
    expect(acp.questions).toEqual([])
    expect(existsSync(tree.path('work/ran.txt'))).toBe(true)
  })

  it('a session started read-only offers read-only alone', async () => {
    tree = await tempTree({ 'work/': null })
    const script = writeScript(tree.root, 'script.json', { responses: [{ text: 'done' }] })
    const acp = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--permission-mode', 'read-only'], { cwd: tree.path('work'), home: tree.root })
    running.push(acp)
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const opened = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    expect(opened.modes).toEqual({ currentModeId: 'read-only', availableModes: [{ id: 'read-only', name: 'Read-only', description: 'read-only (shell sandboxed read-only)' }] })
    await expect(acp.agent.request('session/set_mode', { sessionId: opened.sessionId, modeId: 'ask' })).rejects.toMatchObject({ code: -32602 })
  })
})
