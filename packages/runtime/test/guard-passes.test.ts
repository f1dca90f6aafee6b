// Replaced arguments in the tool pipeline (`updatedArguments`): validated against the tool's
// schema, every guard asked again on them, the stricter verdict kept, the same callId and token,
// and a second replacement ignored.
import { afterEach, describe, expect, it } from 'vitest'
import type { PreExecuteVerdict, ToolExecution } from '@dsh/contracts'
import { runToolCall, type PipelineDeps } from '../src/index.ts'
import { echoText, fixture, type Fixture } from './helpers.ts'

let f: Fixture
afterEach(async () => f?.dispose())

const signal = new AbortController().signal

function deps(extra: Partial<PipelineDeps> = {}): PipelineDeps {
  return { ctx: f.host.ctx, registry: f.host.tools, fs: undefined, cwd: f.tree.root, log: () => undefined, ...extra }
}

/** An outer guard that replaces `from` with `to` (raw arguments), asking with `ask`, and remembers every execution it saw. */
function rewriter(from: string, to: unknown, seen: ToolExecution[], ask?: string): void {
  f.host.ctx.on('tools/pre-execute', async (execution: ToolExecution, next): Promise<PreExecuteVerdict> => {
    seen.push(execution)
    const verdict = await next()
    if (verdict.kind === 'deny' || echoText(execution.arguments) !== from) return verdict
    const updatedArguments = { arguments: to, by: 'the test rewriter' }
    return ask === undefined ? { ...verdict, updatedArguments } : { kind: 'ask', reason: ask, updatedArguments }
  })
}

describe('replaced arguments', () => {
  it('the call runs with the replacement; the guards see it on a second pass with updatedFrom, same callId and token', async () => {
    f = await fixture()
    const seen: ToolExecution[] = []
    rewriter('hello', { text: 'rewritten' }, seen)
    const published: unknown[] = []
    f.host.ctx.on('tools/result', (execution) => {
      published.push(execution.arguments)
    })
    const outcome = await runToolCall(deps(), { callId: 'c1', name: 'echo', rawArguments: '{"text":"hello"}', signal })
    expect(outcome).toMatchObject({ isError: false, content: 'echo: rewritten' })
    expect(seen.map((execution) => execution.arguments)).toEqual([{ text: 'hello' }, { text: 'rewritten' }])
    expect(seen[1]?.updatedFrom).toEqual({ arguments: { text: 'hello' }, by: 'the test rewriter' })
    expect(seen[1]?.token).toBe(seen[0]?.token)
    expect(seen[1]?.callId).toBe('c1')
    expect(published).toEqual([{ text: 'rewritten' }])
  })

  it('a replacement the schema rejects denies the call, naming who replaced it', async () => {
    f = await fixture()
    rewriter('hello', { text: 7 }, [])
    const outcome = await runToolCall(deps(), { callId: 'c1', name: 'echo', rawArguments: '{"text":"hello"}', signal })
    expect(outcome).toMatchObject({ status: 'denied', content: 'The echo call was denied: the test rewriter replaced its arguments with ones the tool does not accept (text: Invalid input: expected string, received number). Do not retry it unchanged; choose another approach or ask the user.' })
  })

  it('an inner guard that denies or asks about the replacement wins over an allow; an ask on the original stays an ask', async () => {
    f = await fixture()
    rewriter('hello', { text: 'forbidden' }, [])
    rewriter('question', { text: 'fine' }, [], 'the hook asks')
    f.host.ctx.on('tools/pre-execute', async (execution: ToolExecution, next) => {
      const verdict = await next()
      const text = echoText(execution.arguments)
      if (text === 'forbidden') return { kind: 'deny', reason: 'forbidden text' } satisfies PreExecuteVerdict
      return verdict
    })
    const denied = await runToolCall(deps(), { callId: 'd', name: 'echo', rawArguments: '{"text":"hello"}', signal })
    expect(denied.content).toBe('The echo call was denied: forbidden text. Do not retry it unchanged; choose another approach or ask the user.')
    const asked: unknown[] = []
    const approved = await runToolCall(deps({ askPermission: (execution) => Promise.resolve(asked.push(execution.arguments) > 0) }), { callId: 'a', name: 'echo', rawArguments: '{"text":"question"}', signal })
    expect(approved).toMatchObject({ isError: false, content: 'echo: fine' })
    // The person is asked about what will run.
    expect(asked).toEqual([{ text: 'fine' }])
  })

  it('a replacement on the second pass is ignored and logged; the first one runs', async () => {
    f = await fixture()
    rewriter('hello', { text: 'first' }, [])
    rewriter('first', { text: 'second' }, [])
    const lines: string[] = []
    const outcome = await runToolCall(deps({ log: (line) => lines.push(line) }), { callId: 'c1', name: 'echo', rawArguments: '{"text":"hello"}', signal })
    expect(outcome.content).toBe('echo: first')
    expect(lines).toEqual(["tools/pre-execute: a second replacement of the echo call's arguments (the test rewriter) is ignored; it runs with the first (the test rewriter)"])
  })
})
