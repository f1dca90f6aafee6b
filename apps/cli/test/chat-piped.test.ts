// dsh chat with stdin and stdout as pipes: plain lines in, the answers out, no prompts and no
// escape codes; permission questions take the next input line; --yes runs bash without asking.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function workspace() {
  tree = await tempTree({ 'repo/notes.txt': 'alpha\nbeta\n', 'scripts/': null })
  return { repo: tree.path('repo'), home: tree.path('home'), log: tree.path('requests.jsonl') }
}

describe('dsh chat with piped input', () => {
  it('prints the answer and exits 0 on /exit; the session line goes to stderr', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'hello.json', { responses: [{ reasoning: 'Be brief.', text: 'Hello! How can I help?' }] })
    const result = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`], 'hello\n/exit\n', { cwd: tree.root })
    expect(result).toMatchObject({ code: 0, stdout: 'Hello! How can I help?\n' })
    expect(result.stderr).toMatch(/^session: \S+\n$/)
  })

  it('dsh chat "…" sends its words as the first message (as claude "…"), then reads on', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'first.json', { responses: [{ text: 'first answer' }, { text: 'second answer' }] })
    const result = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log, 'what', 'is', 'here?'], 'and then?\n', { cwd: tree.root })
    expect(result).toMatchObject({ code: 0, stdout: 'first answer\nsecond answer\n' })
    const [first] = readRequests(w.log)
    expect(first?.messages.filter((message) => message.role === 'user').map((message) => message.content)).toContain('what is here?')
  })

  it('runs several prompts and slash commands in order, ending at the end of input', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'two.json', { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }, { text: 'alpha and beta' }, { text: 'second' }] })
    const input = 'what is in notes.txt?\n\n//etc is a directory\n/compact\n/nope\n'
    const result = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log], input, { cwd: tree.root })
    expect(result.code).toBe(0)
    expect(result.stdout).not.toContain('\x1b[')
    expect(result.stdout).toMatch(/^→ read notes\.txt\n {2}✓ ok: .*alpha.*\(2 lines\)\nalpha and beta\nsecond\ncompacted: 6 visible messages -> 1\nunknown command \/nope \(type \/help for the list\)\n$/)
    const requests = readRequests(w.log)
    expect(requests.at(-1)?.messages.at(-1)?.content).toBe('/etc is a directory')
  })

  it('--max-steps stops a turn at the step limit and says so', async () => {
    const w = await workspace()
    const read = { toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] }
    const script = writeScript(tree.path('scripts'), 'steps.json', { responses: [read, read, { text: 'never reached' }] })
    const result = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`, '--max-steps', '2'], 'keep reading\n', { cwd: tree.root })
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('stopped at the step limit; send another message to continue')
    expect(result.stdout).not.toContain('never reached')
  })

  it('a permission question takes the next line as its answer; "y" runs bash', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'bash.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo made > made.txt && echo done' } }] }, { text: 'Created it.' }] })
    const result = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log], 'make a file\ny\n', { cwd: tree.root })
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Run bash: echo made > made.txt && echo done? [y/N] y\n')
    expect(result.stdout).toMatch(/✓ ok: .*done/)
    expect(readRequests(w.log)[1]?.messages.find((message) => message.role === 'tool')?.content).toContain('done')
  })

  it('a Notification hook (as Claude Code\'s) hears of each permission question; its matcher is the notification type', async () => {
    const w = await workspace()
    const heard = tree.path('heard.jsonl')
    const never = tree.path('never.txt')
    writeFileSync(tree.path('dsh.yaml'), JSON.stringify({ hooks: { Notification: [{ matcher: 'permission_prompt', hooks: [{ type: 'command', command: `jq -c '{hook_event_name, notification_type, message}' >> ${heard}` }] }, { matcher: 'idle_prompt', hooks: [{ type: 'command', command: `touch ${never}` }] }] } }))
    const script = writeScript(tree.path('scripts'), 'notify.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo asked' } }] }, { text: 'Answered.' }] })
    const result = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--config', tree.path('dsh.yaml'), '--model', `scripted:${script}`], 'run it\nn\n', { cwd: tree.root })
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Answered.')
    expect(readFileSync(heard, 'utf8')).toBe('{"hook_event_name":"Notification","notification_type":"permission_prompt","message":"dsh needs your permission to use Bash"}\n')
    expect(existsSync(never)).toBe(false)
  })

  it('run_code asks first; a denied snippet creates nothing and the model sees "not approved"', async () => {
    const w = await workspace()
    const code = "const { writeFileSync } = await import('node:fs')\nwriteFileSync('made.txt', 'x')"
    const script = writeScript(tree.path('scripts'), 'code.json', { responses: [{ toolCalls: [{ name: 'run_code', arguments: { code } }] }, { text: 'Not run.' }] })
    const result = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`, '--request-log', w.log], 'make a file\nn\n', { cwd: tree.root })
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(
      `  const { writeFileSync } = await import('node:fs')\n  writeFileSync('made.txt', 'x')\nin ${w.repo}\nwhy: permission mode ask asks before running run_code\nRun JavaScript (run_code): const { writeFileSync } = await import('node:fs') (+1 lines)? [y/N] n\n`,
    )
    expect(result.stdout).toContain('✗ denied: The run_code call was not approved')
    expect(existsSync(join(w.repo, 'made.txt'))).toBe(false)
    const toolResult = readRequests(w.log)[1]?.messages.find((message) => message.role === 'tool')
    expect(toolResult?.content).toContain('not approved')
  })

  it('--yes runs run_code without a question; a nested bash in the snippet still runs through the pipeline', async () => {
    const w = await workspace()
    const code = "return await tools.bash({ command: 'echo nested > nested.txt && echo ok' })"
    const script = writeScript(tree.path('scripts'), 'code-yes.json', { responses: [{ toolCalls: [{ name: 'run_code', arguments: { code } }] }, { text: 'Ran it.' }] })
    const result = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`, '--yes'], 'go\n', { cwd: tree.root })
    expect(result.code).toBe(0)
    expect(result.stdout).not.toContain('[y/N]')
    expect(readFileSync(join(w.repo, 'nested.txt'), 'utf8')).toBe('nested\n')
  })

  it('an approved run_code snippet still asks separately for the bash it calls', async () => {
    const w = await workspace()
    const code = "return await tools.bash({ command: 'echo nested > nested.txt' })"
    const script = writeScript(tree.path('scripts'), 'code-nested.json', { responses: [{ toolCalls: [{ name: 'run_code', arguments: { code } }] }, { text: 'Done.' }] })
    const result = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`], 'go\ny\nn\n', { cwd: tree.root })
    expect(result.code).toBe(0)
    // A snippet longer than a title is shown whole above the question.
    expect(result.stdout).toContain(`  ${code}\nin ${w.repo}\nwhy: permission mode ask asks before running run_code\nRun JavaScript (run_code): ${code.slice(0, 59)}…? [y/N] y\n`)
    expect(result.stdout).toContain('Run bash: echo nested > nested.txt? [y/N] n\n')
    expect(existsSync(join(w.repo, 'nested.txt'))).toBe(false)
  })

  it('--yes runs bash without a question; a failed turn is reported and makes the exit code 1', async () => {
    const w = await workspace()
    const script = writeScript(tree.path('scripts'), 'yes.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo fine' } }] }, { text: 'Ran it.' }] })
    const result = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`, '--yes'], 'go\nand again\n', { cwd: tree.root })
    expect(result.stdout).not.toContain('[y/N]')
    expect(result.stdout).toMatch(/→ bash echo fine\n {2}✓ ok: .*fine/)
    expect(result.stdout).toContain('Ran it.\n')
    expect(result.stderr).toMatch(/^error: .*ran out of responses at turn 2, step 1/m)
    expect(result.code).toBe(1)
  })

  it('--resume continues a stored session; an unknown id is a one-line error', async () => {
    const w = await workspace()
    const first = writeScript(tree.path('scripts'), 'first.json', { responses: [{ text: 'first answer' }] })
    const second = writeScript(tree.path('scripts'), 'second.json', { responses: [{ text: 'second answer' }] })
    const one = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${first}`], 'first question\n', { cwd: tree.root })
    const id = sessionIdOf(one.stderr)
    const two = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${second}`, '--resume', id, '--request-log', w.log], 'second question\n', { cwd: tree.root })
    expect(two).toMatchObject({ code: 0, stdout: 'second answer\n', stderr: `session: ${id}\n` })
    expect(readRequests(w.log)[0]?.messages.slice(1).map((message) => message.content)).toEqual(['first question', 'first answer', 'second question'])
    const missing = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${second}`, '--resume', 'nope'], '', { cwd: tree.root })
    expect(missing).toMatchObject({ code: 1, stderr: `dsh: no session "nope" in ${w.home}/sessions\n` })
  })
})
