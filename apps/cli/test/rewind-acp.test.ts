// `/rewind` through the built `dsh acp` as an editor drives it: the command is advertised, a turn
// writes and runs bash, `/rewind` lists it, `/rewind 1` previews without changing anything, and
// `/rewind 1 yes` puts the files back on disk (where the editor sees them); no model call is made
// for the commands; `code` / `conversation` take back one half only.
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { spawnAcp, waitFor, type AcpProcess } from './acp-driver.ts'
import { writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
let acp: AcpProcess | undefined
afterEach(async () => {
  acp?.child.stdin?.end()
  if (acp !== undefined) await acp.exited
  acp = undefined
  await tree?.dispose()
  tree = undefined
})

const textOf = (process: AcpProcess, from: number): string =>
  process.updates
    .slice(from)
    .map((note) => note.update)
    .flatMap((update) => (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? [update.content.text] : []))
    .join('')

describe('dsh acp /rewind', () => {
  it('is advertised, lists, previews and rewinds the files on disk', async () => {
    tree = await tempTree({ 'work/keep.txt': 'original\n' })
    const script = writeScript(tree.root, 'script.json', {
      responses: [{ toolCalls: [{ name: 'write', arguments: { file_path: 'new.txt', content: 'made\n' } }] }, { toolCalls: [{ name: 'bash', arguments: { command: 'echo changed > keep.txt' } }] }, { text: 'made them' }],
    })
    acp = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--permission-mode', 'full-auto'], { cwd: tree.path('work'), home: tree.root })
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    const running = acp
    await waitFor(() => running.updates.some((note) => note.update.sessionUpdate === 'available_commands_update'))
    const advertised = acp.updates.find((note) => note.update.sessionUpdate === 'available_commands_update')?.update
    expect(advertised?.sessionUpdate === 'available_commands_update' ? advertised.availableCommands.map((command) => command.name) : []).toEqual(['rewind', 'init'])
    const prompt = (text: string) => running.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })
    expect(await prompt('make the files')).toEqual({ stopReason: 'end_turn' })
    expect(readFileSync(tree.path('work/keep.txt'), 'utf8')).toBe('changed\n')
    let from = acp.updates.length
    expect(await prompt('/rewind')).toEqual({ stopReason: 'end_turn' })
    expect(textOf(acp, from)).toBe('1  make the files  (keep.txt, new.txt)\n/rewind N shows what a rewind to before turn N changes; /rewind N yes does it\n')
    from = acp.updates.length
    await prompt('/rewind 1')
    expect(textOf(acp, from)).toContain('a rewind to before turn 1 would change:\n  restore keep.txt\n  remove new.txt\n')
    expect(readFileSync(tree.path('work/keep.txt'), 'utf8')).toBe('changed\n')
    from = acp.updates.length
    await prompt('/rewind 1 yes')
    expect(textOf(acp, from)).toBe('rewound to before turn 1: 2 files, conversation\n  restored keep.txt\n  removed new.txt\n')
    expect(readFileSync(tree.path('work/keep.txt'), 'utf8')).toBe('original\n')
    expect(existsSync(tree.path('work/new.txt'))).toBe(false)
  })

  it('takes back the files only, or the conversation only', async () => {
    tree = await tempTree({ 'work/keep.txt': 'original\n' })
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo changed > keep.txt' } }] }, { text: 'changed it' }] })
    acp = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--permission-mode', 'full-auto'], { cwd: tree.path('work'), home: tree.root })
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    const running = acp
    const prompt = (text: string) => running.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })
    await prompt('change the file')
    let from = acp.updates.length
    await prompt('/rewind 1 code yes')
    expect(textOf(acp, from)).toBe('rewound to before turn 1: 1 file\n  restored keep.txt\n')
    expect(readFileSync(tree.path('work/keep.txt'), 'utf8')).toBe('original\n')
    from = acp.updates.length
    await prompt('/rewind')
    expect(textOf(acp, from)).toMatch(/^1 {2}change the file {2}\(keep\.txt\) {2}\[rewound\]\n/)
    from = acp.updates.length
    await prompt('/rewind 1 conversation')
    expect(textOf(acp, from)).toMatch(/^a rewind to before turn 1 would change:\n {2}the conversation from turn 1 on \(\d+ messages leave the model's view\)\n/)
    from = acp.updates.length
    await prompt('/rewind 1 conversation yes')
    expect(textOf(acp, from)).toBe('rewound to before turn 1: 0 files, conversation\n')
    expect(readFileSync(tree.path('work/keep.txt'), 'utf8')).toBe('original\n')
  })
})
