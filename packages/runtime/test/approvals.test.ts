// Permission answers beyond yes/no: allow once, allow always (command prefix or tool) for the
// session, and reject with a note the model reads.
import { afterEach, describe, expect, it } from 'vitest'
import * as fc from 'fast-check'
import type { PermissionDecision, PreExecuteVerdict, ToolExecution } from '@dsh/contracts'
import { ApprovalMemory, fetchScope, isSimpleCommand, runToolCall, suggestedPrefix, type PipelineDeps } from '../src/index.ts'
import { fixture, type Fixture } from './helpers.ts'

let f: Fixture
afterEach(async () => f?.dispose())

const signal = new AbortController().signal

const execution = (name: string, args: unknown): ToolExecution => ({ callId: 'c', name, arguments: args, signal, token: Symbol('c') })

describe('suggested prefixes and simple commands', () => {
  it('offers the program and a subcommand word, and nothing for compound commands', () => {
    expect(suggestedPrefix('npm test -- --run')).toBe('npm test')
    expect(suggestedPrefix('git status --short')).toBe('git status')
    expect(suggestedPrefix('ls -la src')).toBe('ls')
    expect(suggestedPrefix('echo hi > made.txt')).toBeUndefined()
    expect(suggestedPrefix('npm test && rm -rf /')).toBeUndefined()
    expect(suggestedPrefix('echo $(whoami)')).toBeUndefined()
    expect(suggestedPrefix('  ')).toBeUndefined()
  })

  it('a remembered prefix never covers a compound command, whatever follows it', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(';', '&&', '|', '>', '<', '`', '$(', '\n', '&'), fc.string(), (head, operator, tail) => {
        const memory = new ApprovalMemory()
        memory.remember(execution('bash', { command: 'npm test' }), { kind: 'command-prefix', prefix: 'npm test' })
        return !memory.covers(execution('bash', { command: `npm test ${head}${operator}${tail}` }))
      }),
    )
  })

  it('a prefix covers the same words followed by arguments, not a longer word', () => {
    const memory = new ApprovalMemory()
    memory.remember(execution('bash', { command: 'npm test' }), { kind: 'command-prefix', prefix: 'npm test' })
    expect(memory.covers(execution('bash', { command: 'npm test' }))).toBe(true)
    expect(memory.covers(execution('bash', { command: 'npm test -- --run a.test.ts' }))).toBe(true)
    expect(memory.covers(execution('bash', { command: 'npm testify' }))).toBe(false)
    expect(memory.covers(execution('bash', { command: 'npm run build' }))).toBe(false)
    expect(memory.covers(execution('run_code', { command: 'npm test' }))).toBe(false)
    expect(isSimpleCommand('npm test')).toBe(true)
    expect(memory.describe()).toEqual(['bash: npm test …'])
  })

  it('a remembered host covers fetches from that host only, in any spelling of it', () => {
    const memory = new ApprovalMemory()
    const scope = fetchScope('https://Docs.Python.org./3/')
    expect(scope).toEqual({ kind: 'domain', host: 'docs.python.org' })
    if (scope !== undefined) memory.remember(execution('web_fetch', { url: 'https://docs.python.org/3/' }), scope)
    expect(memory.covers(execution('web_fetch', { url: 'http://DOCS.python.org/tutorial/' }))).toBe(true)
    expect(memory.covers(execution('web_fetch', { url: 'https://python.org/' }))).toBe(false)
    expect(memory.covers(execution('web_fetch', { url: 'https://api.docs.python.org/' }))).toBe(false)
    expect(memory.covers(execution('web_fetch', { url: 'not a url' }))).toBe(false)
    expect(memory.covers(execution('bash', { command: 'curl https://docs.python.org/' }))).toBe(false)
    expect(memory.describe()).toEqual(['web_fetch: docs.python.org'])
    expect([fetchScope('file:///etc/passwd'), fetchScope('nonsense')]).toEqual([undefined, undefined])
  })
})

/** Pipeline deps whose guard always asks and whose person gives `answers` in order. */
function asking(answers: PermissionDecision[], asked: string[]): PipelineDeps {
  f.host.ctx.on('tools/pre-execute', async (_exec: ToolExecution, next) => {
    await next()
    return { kind: 'ask', reason: 'risky' } satisfies PreExecuteVerdict
  })
  const approvals = new ApprovalMemory()
  return {
    ctx: f.host.ctx,
    registry: f.host.tools,
    fs: undefined,
    cwd: f.tree.root,
    log: () => undefined,
    approvals,
    askPermission: (exec) => {
      asked.push(JSON.stringify(exec.arguments))
      const answer = answers.shift()
      if (answer === undefined) throw new Error('asked more often than expected')
      return Promise.resolve(answer)
    },
  }
}

describe('the pipeline with permission decisions', () => {
  it('allow-always is recorded for display but does not skip a question the guards still ask (the policy decides what it covers)', async () => {
    f = await fixture()
    const asked: string[] = []
    const deps = asking([{ kind: 'allow-always', scope: { kind: 'tool' } }, { kind: 'reject' }], asked)
    const first = await runToolCall(deps, { callId: '1', name: 'echo', rawArguments: '{"text":"a"}', signal })
    const second = await runToolCall(deps, { callId: '2', name: 'echo', rawArguments: '{"text":"b"}', signal })
    expect([first.content, second.content]).toEqual(['echo: a', 'The echo call was not approved (risky). Ask the user how to proceed or choose another approach.'])
    expect(asked).toEqual(['{"text":"a"}', '{"text":"b"}'])
    expect(deps.approvals?.describe()).toEqual(['tool: echo'])
  })

  it('allow-once asks again next time; a reject note is quoted to the model', async () => {
    f = await fixture()
    const asked: string[] = []
    const deps = asking([{ kind: 'allow-once' }, { kind: 'reject', note: 'use the fixture file instead' }, { kind: 'reject' }], asked)
    expect((await runToolCall(deps, { callId: '1', name: 'echo', rawArguments: '{"text":"a"}', signal })).content).toBe('echo: a')
    const noted = await runToolCall(deps, { callId: '2', name: 'echo', rawArguments: '{"text":"b"}', signal })
    expect(noted).toMatchObject({ isError: true, status: 'denied' })
    expect(noted.content).toBe('The echo call was not approved (risky). The user said: "use the fixture file instead". Ask the user how to proceed or choose another approach.')
    const plain = await runToolCall(deps, { callId: '3', name: 'echo', rawArguments: '{"text":"c"}', signal })
    expect(plain.content).toBe('The echo call was not approved (risky). Ask the user how to proceed or choose another approach.')
    expect(asked).toHaveLength(3)
  })
})
