// The tool pipeline: argument errors, guards, post-execute policy and nested dispatch.
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { PreExecuteVerdict, ToolDefinition, ToolExecution } from '@dsh/contracts'
import { runToolCall, SystemPrompt, type PipelineDeps } from '../src/index.ts'
import { echoText, fixture, note, type Fixture } from './helpers.ts'

let f: Fixture
afterEach(async () => f?.dispose())

const signal = new AbortController().signal

function deps(extra: Partial<PipelineDeps> = {}): PipelineDeps {
  return { ctx: f.host.ctx, registry: f.host.tools, fs: undefined, cwd: f.tree.root, log: () => undefined, ...extra }
}

describe('tool pipeline', () => {
  it('turns unknown tools, malformed JSON and schema violations into error results with a fix', async () => {
    f = await fixture()
    const unknown = await runToolCall(deps(), { callId: 'c1', name: 'nope', rawArguments: '{}', signal })
    expect(unknown).toMatchObject({ isError: true, status: 'unknown-tool', content: 'Unknown tool "nope". Call one of the available tools instead: echo, hang.' })
    const malformed = await runToolCall(deps(), { callId: 'c2', name: 'echo', rawArguments: '{"text":', signal })
    expect(malformed.status).toBe('invalid-arguments')
    expect(malformed.content).toMatch(/^The arguments for echo are not valid JSON \(.+\)\. Send a single JSON object that matches the tool's parameter schema\.$/)
    const wrongType = await runToolCall(deps(), { callId: 'c3', name: 'echo', rawArguments: '{"text":5}', signal })
    expect(wrongType.content).toBe('Invalid arguments for echo: text: Invalid input: expected string, received number. Fix these fields and call the tool again.')
  })

  it('guards may deny, ask, and the post-execute policy may block; every outcome is published once', async () => {
    f = await fixture()
    const published: string[] = []
    f.host.ctx.on('tools/result', (exec, outcome) => {
      published.push(`${exec.callId}:${outcome.status}`)
    })
    f.host.ctx.on('tools/pre-execute', async (exec: ToolExecution, next) => {
      const verdict = await next()
      const text = echoText(exec.arguments)
      if (text === 'deny') return { kind: 'deny', reason: 'not allowed here' } satisfies PreExecuteVerdict
      if (text === 'deny-until') return { kind: 'deny', reason: 'read the contract first', recovery: 'Once you have read it, retry the same call.' } satisfies PreExecuteVerdict
      if (text === 'ask') return { kind: 'ask', reason: 'risky' } satisfies PreExecuteVerdict
      return verdict
    })
    f.host.ctx.on('tools/post-execute', async (exec, _output, next) => {
      const decision = await next()
      return echoText(exec.arguments) === 'block' ? { kind: 'block', feedback: 'Blocked: write a test first.', additionalContexts: [note('why')] } : decision
    })
    const denied = await runToolCall(deps(), { callId: 'd', name: 'echo', rawArguments: '{"text":"deny"}', signal })
    expect(denied.content).toBe('The echo call was denied: not allowed here. Do not retry it unchanged; choose another approach or ask the user.')
    const until = await runToolCall(deps(), { callId: 'u', name: 'echo', rawArguments: '{"text":"deny-until"}', signal })
    expect(until).toMatchObject({ status: 'denied', content: 'The echo call was denied: read the contract first. Once you have read it, retry the same call.' })
    const asked = await runToolCall(deps({ askPermission: () => Promise.resolve(true) }), { callId: 'a', name: 'echo', rawArguments: '{"text":"ask"}', signal })
    expect(asked).toMatchObject({ isError: false, content: 'echo: ask' })
    const refused = await runToolCall(deps(), { callId: 'r', name: 'echo', rawArguments: '{"text":"ask"}', signal })
    expect(refused.content).toBe('The echo call was not approved (risky). Ask the user how to proceed or choose another approach.')
    const blocked = await runToolCall(deps(), { callId: 'b', name: 'echo', rawArguments: '{"text":"block"}', signal })
    expect(blocked).toMatchObject({ isError: true, status: 'blocked', content: 'Blocked: write a test first.' })
    expect(blocked.additionalContexts).toHaveLength(1)
    expect(published).toEqual(['d:denied', 'u:denied', 'a:ok', 'r:denied', 'b:blocked'])
  })

  it('a failing guard stops the call with an error result; a failing post-execute listener withholds the result (fails closed)', async () => {
    f = await fixture()
    const logs: string[] = []
    f.host.ctx.on('tools/pre-execute', async (exec, next) => {
      if (echoText(exec.arguments) === 'guard-breaks') throw new Error('guard exploded')
      return next()
    })
    f.host.ctx.on('tools/post-execute', async (exec, _output, next) => {
      if (echoText(exec.arguments) === 'policy-breaks') throw new Error('policy exploded')
      return next()
    })
    const guarded = await runToolCall(deps({ log: (line) => logs.push(line) }), { callId: 'g', name: 'echo', rawArguments: '{"text":"guard-breaks"}', signal })
    expect(guarded).toMatchObject({ isError: true, status: 'failed', content: 'The echo call was not run because a guard failed (guard exploded). Try again, or choose another approach.' })
    const kept = await runToolCall(deps({ log: (line) => logs.push(line) }), { callId: 'p', name: 'echo', rawArguments: '{"text":"policy-breaks"}', signal })
    expect(kept).toMatchObject({
      isError: true,
      status: 'blocked',
      content: 'The echo call ran, but its result could not be checked (policy exploded), so it is withheld. Its effects, if any, happened; check the current state before retrying.',
    })
    expect(logs).toEqual(['tools/pre-execute failed for echo (g): guard exploded', 'tools/post-execute failed for echo (p): policy exploded'])
  })

  it('a tool that finished keeps its result when the step is cancelled afterwards', async () => {
    f = await fixture()
    const controller = new AbortController()
    const finishing: ToolDefinition<Record<string, never>> = {
      name: 'finishing',
      description: 'x',
      parameters: z.object({}),
      execute: () => {
        controller.abort()
        return Promise.resolve({ content: 'wrote the file', touched: [{ path: '/w/a.txt', kind: 'write' as const }] })
      },
    }
    f.host.tools.register(finishing)
    const outcome = await runToolCall(deps(), { callId: 'f', name: 'finishing', rawArguments: '{}', signal: controller.signal })
    expect(outcome).toMatchObject({ isError: false, status: 'ok', content: 'wrote the file', touched: [{ path: '/w/a.txt', kind: 'write' }] })
  })

  it('a thrown tool becomes an error result', async () => {
    f = await fixture()
    const boom: ToolDefinition<Record<string, never>> = { name: 'boom', description: 'x', parameters: z.object({}), execute: () => Promise.reject(new Error('disk on fire')) }
    f.host.tools.register(boom)
    const outcome = await runToolCall(deps(), { callId: 'x', name: 'boom', rawArguments: '', signal })
    expect(outcome).toMatchObject({ isError: true, status: 'failed', content: 'The boom tool failed: disk on fire. Check the arguments and try again, or use another tool.' })
  })

  it('nested dispatches carry the parent token and their contexts land on the outer result, after its own', async () => {
    f = await fixture()
    const parents: (symbol | undefined)[] = []
    f.host.ctx.on('tools/post-execute', async (exec, _output, next) => {
      const decision = await next()
      parents.push(exec.parent)
      return exec.name === 'echo' ? { ...decision, additionalContexts: [note(`ctx-${echoText(exec.arguments)}`)] } : decision
    })
    const outer: ToolDefinition<Record<string, never>> = {
      name: 'outer',
      description: 'x',
      parameters: z.object({}),
      execute: async (_args, run) => {
        const first = await run.dispatch('echo', { text: 'one' })
        await run.dispatch('echo', { text: 'two' })
        return { content: `nested said ${first.content}` }
      },
    }
    f.host.tools.register(outer)
    const outcome = await runToolCall(deps(), { callId: 'o', name: 'outer', rawArguments: '{}', signal })
    expect(outcome.content).toBe('nested said echo: one')
    expect(outcome.additionalContexts.map((m) => m.content[0]?.text)).toEqual(['ctx-one', 'ctx-two'])
    expect(parents[0]).toBeTypeOf('symbol')
    expect(parents.at(-1)).toBeUndefined()
  })
})

describe('system prompt', () => {
  it('joins sections by order, interpolates variables and throws on an unregistered one', () => {
    const prompt = new SystemPrompt()
    prompt.section({ name: 'late', order: 10150, text: 'anchor' })
    const dispose = prompt.section({ name: 'id', order: -100, text: 'I work in {{cwd}}.' })
    expect(prompt.assemble({ cwd: '/w' })).toBe('I work in /w.\n\nanchor')
    dispose()
    expect(prompt.assemble()).toBe('anchor')
    prompt.section({ name: 'bad', order: 0, text: 'hello {{nobody}}' })
    expect(() => prompt.assemble()).toThrow('system prompt section "bad" uses unregistered variable {{nobody}}')
  })
})
