// The chat's pure parts: tool-call summaries, slash parsing, the /context report, the permission
// question and its plain answers, styles, terminal-mode detection and the plain renderer.
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { Message, ToolExecution, ToolFinalOutcome, WorkspaceInstructionsSource } from '@dsh/contracts'
import { permissionQuestion } from '../src/approvals/permission-question.ts'
import { plainAnswer } from '../src/plain/plain-asker.ts'
import { PlainView } from '../src/plain/plain-view.ts'
import { activeInstructions, contextReport, instructionMessages } from '../src/slash/context-report.ts'
import { parseSlash, promptText } from '../src/slash/slash-registry.ts'
import { noColorRequested, terminalMode } from '../src/terminal-mode.ts'
import { sanitize } from '../src/text-safety.ts'
import { createTheme } from '../src/theme.ts'
import { argumentSummary, outcomeSummary } from '../src/tool-summary.ts'

const outcome = (status: ToolFinalOutcome['status'], content: string): ToolFinalOutcome => ({ isError: status !== 'ok', content, touched: [], additionalContexts: [], status })

const execution = (name: string, args: unknown): ToolExecution => ({ callId: 'c1', name, arguments: args, signal: new AbortController().signal, token: Symbol('c1') })

function instructions(changes: WorkspaceInstructionsSource['changes'], baseline = false): Message {
  return { id: 'm', role: 'user', content: [{ type: 'text', text: 'rules' }], source: { kind: 'workspace-instructions', version: 1, plugin: 'workspace-context', baseline, changes } }
}

function multiRoot(changes: WorkspaceInstructionsSource['changes']): Message {
  return { id: 'r', role: 'user', content: [{ type: 'text', text: 'roots' }], source: { kind: 'workspace-instructions', version: 1, plugin: 'multi-root-workspace', changes } }
}

describe('tool summaries', () => {
  it('pick the most telling argument and stay on one short line', () => {
    expect(argumentSummary('{"file_path":"src/a.ts","offset":3}')).toBe('src/a.ts')
    expect(argumentSummary('{"description":"list","command":"ls -la\\n  | head"}')).toBe('ls -la | head')
    expect(argumentSummary('{"pattern":"TODO","path":"src"}')).toBe('TODO in src')
    expect(argumentSummary('{"other":"x"}')).toBe('x')
    expect(argumentSummary('{}')).toBe('')
    expect(argumentSummary('{"file_path":')).toBe('{"file_path":')
    expect(argumentSummary(JSON.stringify({ command: 'x'.repeat(200) }))).toHaveLength(80)
    expect(argumentSummary('{"command":"echo \\u001b[31mred"}')).toBe('echo [31mred')
  })

  it('say ok with the first line and a line count, or the error kind with its first line', () => {
    expect(outcomeSummary(outcome('ok', 'one\ntwo\nthree\n'))).toEqual({ ok: true, text: 'ok: one (3 lines)' })
    expect(outcomeSummary(outcome('ok', 'done'))).toEqual({ ok: true, text: 'ok: done' })
    expect(outcomeSummary(outcome('ok', ''))).toEqual({ ok: true, text: 'ok' })
    expect(outcomeSummary(outcome('failed', 'No such file: a.txt\nhint'))).toEqual({ ok: false, text: 'error: No such file: a.txt' })
    expect(outcomeSummary(outcome('denied', 'The bash call was not approved'))).toEqual({ ok: false, text: 'denied: The bash call was not approved' })
    expect(outcomeSummary(outcome('cancelled', 'The read call was cancelled.')).text).toBe('cancelled: The read call was cancelled.')
  })

  it('count only the output of a bash call and show a non-zero exit or a signal as a failure', () => {
    const bash = { tool: 'bash' }
    expect(outcomeSummary(outcome('ok', '1\n2\n3\n\n[Exit code: 0]'), bash)).toEqual({ ok: true, text: 'ok: 1 (3 lines)' })
    expect(outcomeSummary(outcome('ok', 'three\n\n[Exit code: 1]'), bash)).toEqual({ ok: false, text: 'exit 1: three' })
    expect(outcomeSummary(outcome('ok', 'npm ERR! missing script\nnpm ERR! see log\n\n[Exit code: 127]'), bash)).toEqual({ ok: false, text: 'exit 127: npm ERR! missing script (2 lines)' })
    expect(outcomeSummary(outcome('ok', '(no output)\n\n[Terminated by signal SIGSEGV]'), bash)).toEqual({ ok: false, text: 'signal SIGSEGV: (no output)' })
    // Another tool's text that happens to end like a bash footer is left alone.
    expect(outcomeSummary(outcome('ok', 'log\n\n[Exit code: 1]'), { tool: 'read' })).toEqual({ ok: true, text: 'ok: log (3 lines)' })
  })

  it('show only the first sentence of a denial; the rest is advice for the model', () => {
    const denial = 'The bash call was not approved (dsh chat asks before running bash). The user said: "use ls". Ask the user how to proceed or choose another approach.'
    expect(outcomeSummary(outcome('denied', denial), { tool: 'bash', max: 200 })).toEqual({ ok: false, text: 'denied: The bash call was not approved (dsh chat asks before running bash).' })
  })

  it('drop the line-number gutters of read results', () => {
    expect(outcomeSummary(outcome('ok', '     1\talpha\n     2\tbeta\n'))).toEqual({ ok: true, text: 'ok: alpha (2 lines)' })
    expect(outcomeSummary(outcome('ok', '     1\t\n     2\t  second\n')).text).toBe('ok: second (2 lines)')
  })
})

describe('slash commands', () => {
  it('parse names and arguments; // escapes a leading slash', () => {
    expect(parseSlash('/resume  abc ')).toEqual({ name: 'resume', args: ['abc'] })
    expect(parseSlash('  /EXIT')).toEqual({ name: 'exit', args: [] })
    expect(parseSlash('hello /there')).toBeUndefined()
    expect(parseSlash('//etc/hosts')).toBeUndefined()
    expect(promptText('//etc/hosts')).toBe('/etc/hosts')
    expect(promptText('plain')).toBe('plain')
  })
})

describe('/context report', () => {
  it('lists visible instruction messages and folds them into the active files', () => {
    const messages: Message[] = [
      { id: 'u', role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } },
      instructions([{ action: 'set', scope: 'dir:', path: 'AGENTS.md' }, { action: 'set', scope: 'dir:api', path: 'api/CLAUDE.md' }], true),
      instructions([{ action: 'replace', scope: 'dir:api', path: 'api/AGENTS.md', previousPath: 'api/CLAUDE.md', digest: 'd2' }, { action: 'set', scope: 'dir:web', path: 'web/AGENTS.md', truncated: true }]),
      instructions([{ action: 'remove', scope: 'dir:web', path: 'web/AGENTS.md' }]),
    ]
    expect(instructionMessages(messages)).toHaveLength(3)
    expect(activeInstructions(instructionMessages(messages)).map((file) => file.path)).toEqual(['AGENTS.md', 'api/AGENTS.md'])
    expect(contextReport(messages)).toEqual([
      'instruction messages visible in this session: 3',
      '  1. workspace-context baseline: set AGENTS.md, set api/CLAUDE.md',
      '  2. workspace-context: replace api/AGENTS.md (was api/CLAUDE.md), set web/AGENTS.md (truncated)',
      '  3. workspace-context: remove web/AGENTS.md',
      'active instruction files:',
      '  AGENTS.md',
      '  api/AGENTS.md',
    ])
    const rebased = [...messages, instructions([{ action: 'set', scope: 'dir:', path: 'CLAUDE.md' }], true)]
    expect(activeInstructions(instructionMessages(rebased)).map((file) => file.path)).toEqual(['CLAUDE.md', 'api/AGENTS.md'])
    expect(contextReport([])).toEqual(['no workspace instruction files are visible in this session yet'])
  })

  it('shows the roots the multi-root plugin announced or revoked as roots, not as instruction files', () => {
    const messages: Message[] = [
      multiRoot([
        { action: 'set', scope: 'root\u0000/lib', path: '/lib', root: '/lib', digest: 'n' },
        { action: 'set', scope: 'file\u0000/lib\u0000.\u0000AGENTS.md', path: '/lib/AGENTS.md', root: '/lib', digest: 'd' },
      ]),
      multiRoot([
        { action: 'remove', scope: 'root\u0000/lib', path: '/lib', root: '/lib' },
        { action: 'remove', scope: 'file\u0000/lib\u0000.\u0000AGENTS.md', path: '/lib/AGENTS.md', root: '/lib' },
        { action: 'set', scope: 'root\u0000/other', path: '/other', root: '/other', digest: 'n' },
        { action: 'set', scope: 'file\u0000/other\u0000.\u0000CLAUDE.md', path: '/other/CLAUDE.md', root: '/other', digest: 'd' },
      ]),
    ]
    expect(contextReport(messages)).toEqual([
      'instruction messages visible in this session: 2',
      '  1. multi-root-workspace: announce root /lib, set /lib/AGENTS.md [/lib]',
      '  2. multi-root-workspace: revoke root /lib, remove /lib/AGENTS.md [/lib], announce root /other, set /other/CLAUDE.md [/other]',
      'active instruction files:',
      '  /other/CLAUDE.md [/other]',
    ])
  })
})

const titles = (name: string, args: unknown, askedBefore = 0) => permissionQuestion(execution(name, args), { reason: 'r', askedBefore })

describe('permission question', () => {
  it('shows the bash command, in full above the question when it has several lines', () => {
    expect(titles('bash', { command: 'rm -rf build' })).toMatchObject({ title: 'Run bash: rm -rf build?', detail: [] })
    expect(titles('bash', { command: 'cd a\nmake\n' })).toMatchObject({ title: 'Run bash: cd a (+1 lines)?', detail: ['  cd a', '  make'] })
    const write = permissionQuestion(execution('write', { file_path: 'x.ts', content: '…' }), { cwd: '/repo', reason: 'outside the workspace' })
    expect(write).toMatchObject({ title: 'Allow write x.ts?', context: ['in /repo', 'why: outside the workspace'] })
  })

  it('offers once, a command prefix for simple commands, the whole tool, a note, and no', () => {
    expect(titles('bash', { command: 'npm test -- --run' }).options.map((option) => option.label)).toEqual([
      'Yes, run it once',
      'Yes, and allow "npm test …" for the rest of this session',
      'Yes, and allow every bash call for the rest of this session',
      'No, and tell the model what to do instead…',
      'No',
    ])
    // A compound command: "always" covers its parts' prefixes, never the whole tool on its first question; the tool-wide one from the second.
    const compound = titles('bash', { command: 'git status && npm test | tee log; git status -s' })
    expect(compound.options.map((option) => option.key)).toEqual(['y', 'a', 'm', 'n'])
    expect(compound.options[1]).toMatchObject({ label: 'Yes, and allow each part ("git status …", "npm test …", "tee log …") for the rest of this session', decision: { kind: 'allow-always', scope: { kind: 'command-prefixes', prefixes: ['git status', 'npm test', 'tee log'] } } })
    expect(titles('bash', { command: 'npm test && rm -rf /' }, 1).options.map((option) => option.key)).toEqual(['y', 'a', 't', 'm', 'n'])
    // Parts this reading cannot separate safely (quotes, substitution, redirection): no "always" until asked again.
    expect(titles('bash', { command: 'echo "a;b" && ls' }).options.map((option) => option.key)).toEqual(['y', 'm', 'n'])
    expect(titles('bash', { command: 'ls $(pwd) && ls' }, 1).options.map((option) => option.key)).toEqual(['y', 't', 'm', 'n'])
    expect(titles('bash', { command: 'ls > out && ls' }).options.map((option) => option.key)).toEqual(['y', 'm', 'n'])
    expect(titles('run_code', { code: 'return 1' }).options.map((option) => option.key)).toEqual(['y', 't', 'm', 'n'])
  })

  it('offers a fetch its host, and the whole tool only from the second question', () => {
    const fetch = titles('web_fetch', { url: 'https://Docs.Python.org./3/library/' })
    expect(fetch.options.map((option) => option.label)).toEqual(['Yes, run it once', 'Yes, and allow fetches from docs.python.org for the rest of this session', 'No, and tell the model what to do instead…', 'No'])
    expect(plainAnswer(fetch, 'a')).toEqual({ kind: 'allow-always', scope: { kind: 'domain', host: 'docs.python.org' } })
    expect(titles('web_fetch', { url: 'https://example.com/' }, 1).options.map((option) => option.key)).toEqual(['y', 'a', 't', 'm', 'n'])
    // No host to name (not an http(s) URL): the whole tool, as for any other tool.
    expect(titles('web_fetch', { url: 'file:///etc/passwd' }).options.map((option) => option.key)).toEqual(['y', 't', 'm', 'n'])
  })

  it('plain answers: y once, a the prefix (else the tool), t the tool, "n: why" a note, anything else no', () => {
    const question = titles('bash', { command: 'git status' })
    expect(plainAnswer(question, 'y')).toEqual({ kind: 'allow-once' })
    expect(plainAnswer(question, ' YES ')).toEqual({ kind: 'allow-once' })
    expect(plainAnswer(question, 'a')).toEqual({ kind: 'allow-always', scope: { kind: 'command-prefix', prefix: 'git status' } })
    expect(plainAnswer(titles('run_code', { code: 'x' }), 'a')).toEqual({ kind: 'allow-always', scope: { kind: 'tool' } })
    expect(plainAnswer(question, 't')).toEqual({ kind: 'allow-always', scope: { kind: 'tool' } })
    expect(plainAnswer(question, 'n: use the fixture')).toEqual({ kind: 'reject', note: 'use the fixture' })
    expect(['', 'n', 'no', 'yy', undefined].map((answer) => plainAnswer(question, answer))).toEqual(Array.from({ length: 5 }, () => ({ kind: 'reject' })))
  })

  it('shows run_code snippets the same way, every line and character of them', () => {
    expect(titles('run_code', { code: 'return 1' }).title).toBe('Run JavaScript (run_code): return 1?')
    const long = Array.from({ length: 45 }, (_, i) => `console.log(${i})`).join('\n')
    const { detail, title } = titles('run_code', { code: long })
    expect(title).toBe('Run JavaScript (run_code): console.log(0) (+44 lines)?')
    expect(detail).toHaveLength(45)
    expect(detail.at(44)).toBe('  console.log(44)')
    const wide = titles('run_code', { code: 'x'.repeat(350) })
    expect(wide.title).toBe(`Run JavaScript (run_code): ${'x'.repeat(59)}…?`)
    expect(wide.detail).toEqual([`  ${'x'.repeat(350)}`])
  })
})

describe('styles and terminal mode', () => {
  it('NO_COLOR removes colour only; TERM=dumb and pipes get the plain mode', () => {
    expect(createTheme({ color: false, attributes: true }).red('x')).toBe('x')
    expect(createTheme({ color: false, attributes: true }).bold('x')).toBe('\x1b[1mx\x1b[22m')
    expect(createTheme({ color: true, attributes: true }).red('x')).toBe('\x1b[31mx\x1b[39m')
    expect(noColorRequested({ NO_COLOR: '1' })).toBe(true)
    expect(noColorRequested({ NO_COLOR: '' })).toBe(false)
    expect(sanitize('a\x1b[2Jb\r\n\tc\x07')).toBe('a[2Jb\n  c')
    const tty = Object.assign(new PassThrough(), { isTTY: true })
    const pipe = new PassThrough()
    expect(terminalMode(tty, tty, {})).toEqual({ kind: 'screen', color: true, interactive: true })
    expect(terminalMode(tty, tty, { NO_COLOR: 'yes' })).toEqual({ kind: 'screen', color: false, interactive: true })
    expect(terminalMode(tty, tty, { TERM: 'dumb' })).toEqual({ kind: 'plain', color: false, interactive: true })
    expect(terminalMode(pipe, tty, {})).toEqual({ kind: 'plain', color: false, interactive: false })
    expect(terminalMode(tty, pipe, {})).toEqual({ kind: 'plain', color: false, interactive: true })
  })

  it('the plain renderer keeps reasoning apart from the answer and tool lines on their own lines', () => {
    const out = new PassThrough()
    const view = new PlainView({ out, err: out, showReasoning: true, readLine: () => Promise.resolve(undefined) })
    view.progress({ type: 'step-start', turn: 1, step: 1 })
    view.progress({ type: 'reasoning', text: 'hmm' })
    view.progress({ type: 'text', text: 'Let me look' })
    view.progress({ type: 'tool-start', callId: 'c', name: 'read', arguments: '{"file_path":"a"}' })
    view.progress({ type: 'tool-end', callId: 'c', name: 'read', outcome: outcome('ok', 'x') })
    view.progress({ type: 'text', text: 'Done.' })
    view.progress({ type: 'turn-end', turn: 1, reason: 'completed' })
    expect(String(out.read())).toBe('thinking: hmm\nLet me look\n→ read a\n  ✓ ok: x\nDone.\n')
  })
})
