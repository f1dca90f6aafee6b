// run_code nested calls: reading through `tools`, parent tokens, call order, deferred contexts in history.
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatRequestBody, ToolExecution, ToolFinalOutcome } from '@dsh/contracts'
import { createScriptedProvider } from '@dsh/llm-scripted'
import { deriveMessages, messageText } from '@dsh/runtime'
import { eventText, filePathOf, fixture, note, type Fixture } from './helpers.ts'

let f: Fixture | undefined
afterEach(async () => {
  await f?.dispose()
  f = undefined
})

const notes = { 'work/notes.txt': 'first line\nsecond line\nthird line', 'work/a.txt': 'A', 'work/b.txt': 'B' }

describe('run_code nested calls', () => {
  it('reads a file through tools.read and returns part of it; touched stays on the nested outcome', async () => {
    f = await fixture(notes)
    const results: [ToolExecution, ToolFinalOutcome][] = []
    f.host.ctx.on('tools/result', (exec, outcome) => {
      results.push([exec, outcome])
    })
    const code = "const text = await tools.read({ file_path: 'notes.txt' })\nconsole.log('lines:', text.split('\\n').length)\nreturn text.split('\\n')[1]"
    const outcome = await f.call('run_code', { code })
    expect(outcome).toMatchObject({ isError: false, status: 'ok', touched: [] })
    expect(outcome.content).toBe('Output:\nlines: 3\n\nReturned:\nsecond line\n\nNested tool calls: read ✓')
    const nested = results.find(([exec]) => exec.name === 'read')
    expect(nested?.[0].callId).toBe('top1:code:1')
    expect(nested?.[1].touched).toEqual([{ path: `${f.cwd}/notes.txt`, kind: 'read' }])
  })

  it('renders non-string return values as JSON and says when there is nothing to show', async () => {
    f = await fixture(notes)
    const json = await f.call('run_code', { code: "return { files: ['a.txt', 'b.txt'], count: 2 }" })
    expect(json.content).toBe('Returned:\n{\n  "files": [\n    "a.txt",\n    "b.txt"\n  ],\n  "count": 2\n}\n\nNested tool calls: none')
    const empty = await f.call('run_code', { code: 'await null' })
    expect(empty.content).toBe('The snippet produced no output and returned nothing.\n\nNested tool calls: none')
  })

  it('nested calls run in order with run_code as parent; their contexts land on the outer outcome', async () => {
    f = await fixture(notes)
    let outerToken: symbol | undefined
    const seen: string[] = []
    f.host.ctx.on('tools/pre-execute', async (exec, next) => {
      if (exec.name === 'run_code') outerToken = exec.token
      return next()
    })
    f.host.ctx.on('tools/post-execute', async (exec, _output, next) => {
      const decision = await next()
      const relation = exec.parent === undefined ? 'top' : exec.parent === outerToken ? 'child' : 'other'
      seen.push(`${exec.name}:${relation}`)
      if (exec.name !== 'read') return decision
      return { ...decision, additionalContexts: [note(`ctx ${filePathOf(exec)}`)] }
    })
    const code = "const a = await tools.read({ file_path: 'a.txt' })\nconst b = await tools.read({ file_path: 'b.txt' })\nreturn a + b"
    const outcome = await f.call('run_code', { code })
    expect(outcome.content).toBe('Returned:\nAB\n\nNested tool calls: read ✓, read ✓')
    expect(seen).toEqual(['read:child', 'read:child', 'run_code:top'])
    expect(outcome.additionalContexts.map((message) => messageText(message))).toEqual(['ctx a.txt', 'ctx b.txt'])
  })

  it('in a full agent turn the nested context enters history after the outer tool/result', async () => {
    f = await fixture(notes)
    f.host.ctx.on('tools/post-execute', async (exec, _output, next) => {
      const decision = await next()
      return exec.name === 'read' ? { ...decision, additionalContexts: [note('nested read context')] } : decision
    })
    const code = "return (await tools.read({ file_path: 'notes.txt' })).length"
    const script = { responses: [{ toolCalls: [{ name: 'run_code', arguments: { code } }] }, { text: 'done' }] }
    const requests: ChatRequestBody[] = []
    const agent = await f.host.startAgent({ cwd: f.cwd, provider: createScriptedProvider(script), onRequest: (body) => requests.push(body) })
    const result = await agent.prompt('count the characters')
    expect(result).toMatchObject({ reason: 'completed', finalText: 'done' })

    const events = agent.session.events
    const resultIndex = events.findIndex((e) => e.type === 'tool/result')
    const contextIndex = events.findIndex((e) => e.type === 'user/message' && eventText(e) === 'nested read context')
    const stepEndIndex = events.findIndex((e) => e.type === 'step/end')
    expect(resultIndex).toBeGreaterThan(-1)
    expect(contextIndex).toBeGreaterThan(resultIndex)
    expect(contextIndex).toBeLessThan(stepEndIndex)
    expect(events.filter((e) => e.type === 'tool/result')).toHaveLength(1) // nested calls are not history

    const history = deriveMessages(agent.session).map((m) => `${m.role}:${messageText(m)}`)
    expect(history).toEqual([
      'user:count the characters',
      'assistant:',
      'tool:Returned:\n33\n\nNested tool calls: read ✓',
      'user:nested read context',
      'assistant:done',
    ])
    const second = requests[1]
    expect(second?.messages.slice(-2).map((m) => m.role)).toEqual(['tool', 'user'])
  })
})
