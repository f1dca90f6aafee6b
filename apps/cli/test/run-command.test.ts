// End to end through the built binary: dsh run, --resume, sessions, compact, usage errors.
import { afterEach, describe, expect, it } from 'vitest'
import { readFileSync, writeFileSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { readRequests, runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function workspace() {
  tree = await tempTree({ 'repo/notes.txt': 'alpha\nbeta\n', 'scripts/': null })
  return { repo: tree.path('repo'), home: tree.path('home'), log: tree.path('requests.jsonl') }
}

describe('dsh run', () => {
  it('prints the final answer on stdout, the session on stderr, and feeds a tool result to the next request', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'read.json', { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'The file says alpha and beta.' }] })
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log, 'what is in notes.txt?'], { cwd: tree.root })
    expect(result.stderr).toMatch(/^session: \S+$/m)
    expect(result).toMatchObject({ code: 0, stdout: 'The file says alpha and beta.\n' })
    const requests = readRequests(w.log)
    expect(requests).toHaveLength(2)
    expect(requests[0]?.messages.map((m) => m.role)).toEqual(['system', 'user'])
    expect(requests[0]?.tools?.length).toBeGreaterThanOrEqual(6)
    const toolMessage = requests[1]?.messages.find((m) => m.role === 'tool')
    expect(toolMessage?.content).toContain('alpha')
    expect(toolMessage?.tool_call_id).toBe('call_t1s1_1')
  })

  it('--resume continues the stored history and dsh compact shortens it', async () => {
    const w = await workspace()
    const first = writeScript(tree.path('scripts'), 'one.json', { responses: [{ text: 'first answer' }] })
    const second = writeScript(tree.path('scripts'), 'two.json', { responses: [{ text: 'second answer' }] })
    const third = writeScript(tree.path('scripts'), 'three.json', { responses: [{ text: 'third answer' }] })
    const run1 = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${first}`, 'first question'], { cwd: tree.root })
    const id = sessionIdOf(run1.stderr)
    const run2 = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${second}`, '--resume', id, '--request-log', w.log, 'second question'], { cwd: tree.root })
    expect(run2.stdout).toBe('second answer\n')
    expect(sessionIdOf(run2.stderr)).toBe(id)
    expect(readRequests(w.log)[0]?.messages.slice(1).map((m) => m.content)).toEqual(['first question', 'first answer', 'second question'])
    const compact = await runDsh(['--dsh-home', w.home, 'compact', id], { cwd: tree.root })
    expect(compact).toMatchObject({ code: 0, stdout: `compacted ${id}: 4 visible messages -> 1\n` })
    await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${third}`, '--resume', id, '--request-log', w.log, 'third question'], { cwd: tree.root })
    const after = readRequests(w.log)[1]?.messages.slice(1).map((m) => m.content ?? '')
    expect(after).toHaveLength(2)
    expect(after?.[0]).toMatch(/^\[Conversation checkpoint\][\s\S]*User: first question\nAssistant: first answer\nUser: second question\nAssistant: second answer\n\nThe user's latest request, verbatim:\n\nsecond question\n\n/)
    expect(after?.[1]).toBe('third question')
    const shown = await runDsh(['--dsh-home', w.home, 'sessions', 'show', id, '--messages'], { cwd: tree.root })
    expect(shown.stdout).toContain('--- user (compaction)')
    const listed = await runDsh(['--dsh-home', w.home, 'sessions', 'list'], { cwd: tree.root })
    expect(listed.stdout).toContain(`${id}  `)
    expect(listed.stdout).toContain('first question')
  })

  it('a resumed session keeps working in its own directory when dsh runs elsewhere', async () => {
    const w = await workspace()
    const first = writeScript(tree.path('scripts'), 'first.json', { responses: [{ text: 'ready' }] })
    const second = writeScript(tree.path('scripts'), 'second.json', {
      responses: [{ toolCalls: [{ name: 'write', arguments: { file_path: 'out.txt', content: 'written on resume\n' } }] }, { text: 'wrote it' }],
    })
    const run1 = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${first}`, 'start'], { cwd: tree.root })
    const id = sessionIdOf(run1.stderr)
    // TMPDIR moves the temp-directory root away from the tree, so only the session's cwd can make repo/ writable.
    const run2 = await runDsh(['--dsh-home', w.home, 'run', '--model', `scripted:${second}`, '--resume', id, '--request-log', w.log, 'write the file'], {
      cwd: tree.path('scripts'),
      env: { TMPDIR: tree.path('scripts') },
    })
    expect(run2).toMatchObject({ code: 0, stdout: 'wrote it\n' })
    expect(readFileSync(tree.path('repo/out.txt'), 'utf8')).toBe('written on resume\n')
  })

  it('bad usage exits 2 with one line naming the problem', async () => {
    const w = await workspace()
    const config = tree.path('bad.yaml')
    writeFileSync(config, 'workspaceContext: {}\nnope: 1\n')
    const unknownKey = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--config', config, 'hi'], { cwd: tree.root })
    expect(unknownKey).toMatchObject({ code: 2, stderr: `dsh: ${config}: nope: unknown key\n` })
    writeFileSync(config, 'model:\n  timeoutMs: 100\n  connectTimeoutMs: 200\n  nope: 1\n')
    const bothNames = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--config', config, 'hi'], { cwd: tree.root })
    expect(bothNames).toMatchObject({
      code: 2,
      stderr: `warning: ${config}: model.timeoutMs is the old name of model.connectTimeoutMs, which is also set; ignoring model.timeoutMs (remove it)\ndsh: ${config}: model.nope: unknown key\n`,
    })
    writeFileSync(config, 'model:\n  maxRetries: lots\n')
    const wrongType = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--config', config, 'hi'], { cwd: tree.root })
    expect(wrongType.code).toBe(2)
    expect(wrongType.stderr).toMatch(new RegExp(`^dsh: ${config}: model\\.maxRetries: .*number.*\\n$`))
    const badModel = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', 'no such model', 'hi'], { cwd: tree.root })
    expect(badModel).toMatchObject({ code: 2, stderr: 'dsh: --model "no such model": expected deepseek:<model>, openai:<model> or scripted:<file.json>\n' })
    const badCwd = await runDsh(['--dsh-home', w.home, 'run', '--cwd', tree.path('missing'), 'hi'], { cwd: tree.root })
    expect(badCwd).toMatchObject({ code: 2, stderr: `dsh: --cwd ${tree.path('missing')}: no such directory\n` })
    const noKey = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, 'hi'], { cwd: tree.root })
    expect(noKey.code).toBe(1)
    expect(noKey.stderr).toMatch(/DEEPSEEK_API_KEY/)
    expect(noKey.stderr.trim().split('\n')).toHaveLength(1)
    const unknownSession = await runDsh(['--dsh-home', w.home, 'sessions', 'show', 'nope'], { cwd: tree.root })
    expect(unknownSession).toMatchObject({ code: 1, stderr: `dsh: no session "nope" in ${w.home}/sessions\n` })
    const addDir = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--add-dir', tree.root, 'hi'], { cwd: tree.root })
    expect(addDir).toMatchObject({ code: 2, stderr: `dsh: --add-dir ${tree.root}: primary-overlap: ${tree.root} contains the primary root ${w.repo}; add a directory beside it instead\n` })
    const unknownCommand = await runDsh(['frobnicate'], { cwd: tree.root })
    expect(unknownCommand.code).toBe(2)
  })

  it('running out of scripted responses fails with the step named', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'short.json', { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }] })
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, 'go'], { cwd: tree.root })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`dsh: ${script}: ran out of responses at turn 1, step 2`)
  })

  it('stopping at the step limit prints the partial answer, says how to continue and exits 1', async () => {
    const w = await workspace()
    const read = { toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }
    const script = writeScript(tree.path('scripts'), 'steps.json', { responses: [read, { text: 'Read it once, reading again.', ...read }, { text: 'never reached' }] })
    const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, '--max-steps', '2', 'keep reading'], { cwd: tree.root })
    const id = sessionIdOf(result.stderr)
    expect(result).toMatchObject({
      code: 1,
      stdout: 'Read it once, reading again.\n',
      stderr: `session: ${id}\ndsh: stopped at the step limit (2 steps) before the model finished; continue with --resume ${id}\n`,
    })
    const more = writeScript(tree.path('scripts'), 'more.json', { responses: [{ text: 'Both lines read.' }] })
    const resumed = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${more}`, '--resume', id, 'go on'], { cwd: tree.root })
    expect(resumed).toMatchObject({ code: 0, stdout: 'Both lines read.\n' })
  })

  it('--help and --version succeed', async () => {
    await workspace()
    const help = await runDsh(['--help'], { cwd: tree.root })
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('run|exec [options] [prompt...]')
    const version = await runDsh(['--version'], { cwd: tree.root })
    expect(version).toMatchObject({ code: 0, stdout: '0.1.0\n' })
  })
})
