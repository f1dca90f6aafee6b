// What a new user hits, through the built binary: prompts from arguments or stdin, --resume with
// another --cwd, one error-line format with exit 2 for usage errors, help texts, an unusable home.
import { appendFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function workspace() {
  tree = await tempTree({ 'repo/notes.txt': 'alpha\n', 'other/': null })
  const script = writeScript(tree.root, 'answer.json', { responses: [{ text: 'answered' }] })
  const base = ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`]
  return { home: tree.path('home'), repo: tree.path('repo'), script, base, log: tree.path('requests.jsonl') }
}

describe('the prompt of dsh run', () => {
  it('an empty or blank prompt is a usage error and never reaches the model', async () => {
    const w = await workspace()
    for (const blank of ['', '   ']) {
      const result = await runDsh([...w.base, '--request-log', w.log, blank], { cwd: tree.root })
      expect(result).toEqual({ code: 2, stdout: '', stderr: 'dsh: the prompt is empty: say what the agent should do\n' })
    }
    const emptyStdin = await runDsh([...w.base, '-'], { cwd: tree.root, input: '  \n' })
    expect(emptyStdin).toEqual({ code: 2, stdout: '', stderr: 'dsh: the prompt read from stdin is empty: say what the agent should do\n' })
    expect(() => readRequests(w.log)).toThrow(/ENOENT/)
  })

  it('"-" and a piped stdin without a prompt argument give the prompt', async () => {
    const w = await workspace()
    const dash = await runDsh([...w.base, '--request-log', w.log, '-'], { cwd: tree.root, input: 'what is in notes.txt?\n' })
    expect(dash).toMatchObject({ code: 0, stdout: 'answered\n' })
    const piped = await runDsh([...w.base, '--request-log', w.log], { cwd: tree.root, input: 'and piped\nover two lines\n' })
    expect(piped).toMatchObject({ code: 0, stdout: 'answered\n' })
    expect(readRequests(w.log).map((body) => body.messages.at(-1)?.content)).toEqual(['what is in notes.txt?', 'and piped\nover two lines'])
  })
})

/** `--resume ID --cwd OTHER` is refused as a usage error naming the session's own directory. */
async function expectOtherDirectoryRefused(w: Awaited<ReturnType<typeof workspace>>, id: string): Promise<void> {
  const other = await runDsh(['--dsh-home', w.home, 'run', '--cwd', tree.path('other'), '--model', `scripted:${w.script}`, '--resume', id, 'again'], { cwd: tree.root })
  expect(other).toEqual({
    code: 2,
    stdout: '',
    stderr: `dsh: --cwd ${tree.path('other')}: session ${id} works in ${w.repo} (a session keeps its directory); leave out --cwd, or pass --cwd ${w.repo}\n`,
  })
}

describe('--resume and --cwd', () => {
  it('refuses another directory for a resumed session, accepts its own, and the chat names the directory it works in', async () => {
    const w = await workspace()
    const id = sessionIdOf((await runDsh([...w.base, 'first'], { cwd: tree.root })).stderr)
    await expectOtherDirectoryRefused(w, id)
    const same = await runDsh([...w.base, '--resume', id, 'again'], { cwd: tree.root })
    expect(same).toMatchObject({ code: 0, stdout: 'answered\n' })
    const chat = await runDshPiped(['--dsh-home', w.home, 'chat', '--cwd', tree.path('other'), '--model', `scripted:${w.script}`], `/resume ${id}\n`, { cwd: tree.root })
    expect(chat.stdout).toContain(`resumed session ${id} (4 visible messages); it works in ${w.repo}, where it was created (not in ${tree.path('other')}, where this dsh started)\n`)
  })
})

describe('--resume and --cwd, the header alone', () => {
  it('decides the directory from the header line without loading the session: a body that cannot load is still a usage error first', async () => {
    const w = await workspace()
    const id = sessionIdOf((await runDsh([...w.base, 'first'], { cwd: tree.root })).stderr)
    appendFileSync(`${w.home}/sessions/${id}.jsonl`, '{"type":"user/message","seq":99,"time":"t","data":{"message":"not a message"}}\n')
    await expectOtherDirectoryRefused(w, id)
    const same = await runDsh([...w.base, '--resume', id, 'again'], { cwd: tree.root })
    expect(same).toMatchObject({ code: 1, stdout: '', stderr: `dsh: ${w.home}/sessions/${id}.jsonl:11: invalid user/message event (data.message: expected object, got "not a message")\n` })
  })
})

describe('errors and help', () => {
  it('every usage error is one "dsh:" line with exit code 2, commander errors included', async () => {
    const w = await workspace()
    const cases: [readonly string[], string][] = [
      [[...w.base, '--nope', 'hi'], "dsh: unknown option '--nope'; see dsh run --help\n"],
      [['run', '--cdw', 'x', 'hi'], "dsh: unknown option '--cdw' (Did you mean --cwd?); see dsh run --help\n"],
      [['run', '--max-steps', 'lots', 'hi'], "dsh: option '--max-steps <n>' argument 'lots' is invalid. expected a positive integer; see dsh run --help\n"],
      [['sessions', 'show'], "dsh: missing required argument 'id'; see dsh sessions show --help\n"],
      [['sessions'], 'dsh: sessions needs a subcommand: list or show (see dsh sessions --help)\n'],
      [['frobnicate'], 'dsh: unknown command \'frobnicate\'; to ask the agent: dsh run "…" (or dsh -p "…"), or dsh chat; see dsh --help\n'],
      // An editor picks sessions with session/load: dsh acp has no --resume to ignore silently.
      [['acp', '--resume', 'abc'], "dsh: unknown option '--resume'; see dsh acp --help\n"],
      [['sessions', 'lsit'], "dsh: unknown command 'sessions lsit'; see dsh sessions --help\n"],
      [['help', 'frobnicate'], 'dsh: unknown command "frobnicate" (dsh help lists the commands)\n'],
      [['run', '--config', tree.path('missing.yaml'), 'hi'], `dsh: ${tree.path('missing.yaml')}: cannot read config (ENOENT)\n`],
      [['run', '--model', `scripted:${tree.path('missing.json')}`, 'hi'], `dsh: ${tree.path('missing.json')}: cannot read model script (ENOENT)\n`],
    ]
    for (const [args, stderr] of cases) expect(await runDsh(args, { cwd: tree.root }), args.join(' ')).toEqual({ code: 2, stdout: '', stderr })
  })

  it('dsh -p PROMPT and dsh --print PROMPT are dsh run (as claude -p), dsh exec too (as codex exec); options come before or after', async () => {
    const w = await workspace()
    const script = writeScript(tree.root, 'answer.json', { responses: [{ text: 'printed' }] })
    for (const args of [['-p', 'hi', '--model', `scripted:${script}`], ['--dsh-home', tree.path('home'), '--print', '--model', `scripted:${script}`, 'hi'], ['exec', '--model', `scripted:${script}`, 'hi']]) {
      const result = await runDsh([...args, '--cwd', w.repo], { cwd: tree.root, env: { DSH_HOME: tree.path('home') } })
      expect(result, args.join(' ')).toMatchObject({ code: 0, stdout: 'printed\n' })
    }
    const json = await runDsh(['-p', '--output-format', 'json', '--model', `scripted:${script}`, '--cwd', w.repo, 'hi'], { cwd: tree.root, env: { DSH_HOME: tree.path('home') } })
    expect(JSON.parse(json.stdout)).toMatchObject({ type: 'result', result: 'printed', is_error: false })
  })

  it('--help of each command shows examples, defaults and the environment it reads; dsh help COMMAND the same', async () => {
    await workspace()
    for (const command of [['run'], ['chat'], ['acp'], ['context'], ['context', 'why'], ['sessions', 'list'], ['sessions', 'show'], ['compact'], ['sandbox', 'check']]) {
      const help = await runDsh([...command, '--help'], { cwd: tree.root })
      expect(help.code, command.join(' ')).toBe(0)
      expect(help.stdout, command.join(' ')).toMatch(new RegExp(`^Usage: dsh ${command.join(' ')}(?:\\|exec)? [\\s\\S]*\\nExamples:\\n  dsh ${command[0]}[\\s\\S]*\\nEnvironment:\\n  DSH_HOME `))
      expect((await runDsh(['help', ...command], { cwd: tree.root })).stdout).toBe(help.stdout)
    }
    const run = (await runDsh(['run', '--help'], { cwd: tree.root })).stdout
    // The option column is as wide as the longest option (-o, --output-last-message <file>).
    expect(run).toMatch(/\n {2}--max-steps <n> +step limit per turn \(default: 200\)\n/)
    expect(run).toMatch(/\n {2}--permission-mode <mode> +read-only, ask, auto-edit, full-auto or\n/)
    expect(run).toContain('  DEEPSEEK_API_KEY   key for deepseek:<model> (the default provider)')
    expect((await runDsh(['chat', '--help'], { cwd: tree.root })).stdout).toContain('  NO_COLOR ')
    expect((await runDsh(['acp', '--help'], { cwd: tree.root })).stdout).not.toContain('--resume')
  })

  it('a --dsh-home where directories cannot be created fails at once with one line', async () => {
    const w = await workspace()
    writeFileSync(tree.path('file'), 'not a directory')
    const proc = await runDsh(['--dsh-home', '/proc/dsh-test-home/nested', 'run', '--cwd', w.repo, '--model', `scripted:${w.script}`, 'hi'], { cwd: tree.root, timeoutMs: 20_000 })
    expect(proc).toEqual({ code: 1, stdout: '', stderr: 'dsh: cannot create directory /proc/dsh-test-home (needed for /proc/dsh-test-home/nested/sessions): /proc does not accept new directories (ENOENT)\n' })
    const file = await runDsh(['--dsh-home', tree.path('file/home'), 'run', '--cwd', w.repo, '--model', `scripted:${w.script}`, 'hi'], { cwd: tree.root })
    expect(file).toEqual({ code: 1, stdout: '', stderr: `dsh: cannot create directory ${tree.path('file/home/sessions')}: ${tree.path('file')} exists and is not a directory\n` })
  })
})
