// The subagent tool end to end: child session file and header, delegation message, answer in the parent's history.
import { afterEach, describe, expect, it } from 'vitest'
import { eventMessage, messageText } from '@dsh/runtime'
import { delegationText } from '../src/index.ts'
import { bigTool, childrenOf, erased, fixture, type Fixture } from './helpers.ts'

let f: Fixture | undefined
afterEach(async () => {
  await f?.dispose()
  f = undefined
})

const delegate = { name: 'subagent', arguments: { prompt: 'Find out which file defines the answer.', description: 'find the answer' } }

describe('subagent delegation', () => {
  it('runs the child in its own session and returns its final answer to the parent', async () => {
    f = await fixture({ childScript: { responses: [{ toolCalls: [{ name: 'noop', arguments: {} }] }, { text: 'The answer is 42, in answer.txt.' }] } })
    const parent = await f.parent({ responses: [{ toolCalls: [delegate] }, { text: 'parent done' }] })
    const result = await parent.prompt('delegate the search')
    expect(result).toMatchObject({ reason: 'completed', finalText: 'parent done' })

    const children = childrenOf(f, parent.session.id)
    expect(children).toHaveLength(1)
    const child = children[0]
    expect(child?.header).toMatchObject({ origin: 'subagent', parentSession: parent.session.id, delegationDepth: 1, cwd: f.cwd })
    const first = child?.events.find((event) => event.type === 'user/message')
    const message = first === undefined ? undefined : eventMessage(first)
    expect(message?.source).toEqual({ kind: 'delegation', parentSession: parent.session.id, parentCallId: 'call_t1s1_1' })
    expect(message === undefined ? '' : messageText(message)).toBe(
      delegationText({ prompt: 'Find out which file defines the answer.', description: 'find the answer', parentSession: parent.session.id }),
    )
    expect(child?.events.find((event) => event.type === 'turn/end')?.data).toEqual({ turn: 1, reason: 'completed' })

    const childId = child?.header.id ?? ''
    const toolMessage = f.requests[1]?.messages.find((m) => m.role === 'tool')
    expect(toolMessage).toEqual({ role: 'tool', tool_call_id: 'call_t1s1_1', content: `The answer is 42, in answer.txt.\n\nSubagent session: ${childId}` })
  })

  it("passes the starter's onRequest and autoCompact to the child: its requests are reported, its history compacted", async () => {
    // Two big steps: before the third, the first is old enough to be compacted (the latest step stays).
    const bigStep = { toolCalls: [{ name: 'big', arguments: {} }] }
    const childScript = { responses: [bigStep, bigStep, { text: 'Summary: the child ran noop.' }, { text: 'child done' }] }
    f = await fixture({ childScript, childAutoCompact: { share: 0.0001, useModel: true }, extraTools: [erased(bigTool)] })
    const parent = await f.parent({ responses: [{ toolCalls: [delegate] }, { text: 'parent done' }] })
    expect(await parent.prompt('delegate')).toMatchObject({ reason: 'completed', finalText: 'parent done' })
    expect(f.requests).toHaveLength(2)
    expect(f.childRequests).toHaveLength(4)
    expect(f.childRequests[0]?.messages.at(-1)?.content).toContain('This is a delegated task')
    expect(f.childRequests[2]?.messages[0]?.content).toMatch(/^You write checkpoint summaries/)
    const child = childrenOf(f, parent.session.id)[0]
    const checkpoint = child?.events.map((event) => eventMessage(event)).find((message) => message?.role === 'user' && message.source.kind === 'compaction')
    expect(checkpoint === undefined ? '' : messageText(checkpoint)).toContain('Summary: the child ran noop.')
  })

  it('tells the child it is a delegated task whose final answer goes back to the parent', () => {
    const text = delegationText({ prompt: 'Count the TODOs.', parentSession: 'p-1' })
    expect(text).toBe(
      'This is a delegated task. Another agent (session p-1) started you as a subagent to do it.\n\nTask:\nCount the TODOs.\n\nWork on it on your own with your tools; nobody will answer questions while you work. When you are done, reply with your final answer. Only that final message is returned to the delegating agent, as the result of its subagent call, so make it complete and self-contained: what you found or changed, and anything you could not do.',
    )
  })

  it('refuses to delegate beyond maxDepth and suggests doing the work directly', async () => {
    f = await fixture({ maxDepth: 1, childScript: { responses: [{ toolCalls: [delegate] }, { text: 'did it myself' }] } })
    const parent = await f.parent({ responses: [{ toolCalls: [delegate] }, { text: 'ok' }] })
    await parent.prompt('go')
    const children = childrenOf(f, parent.session.id)
    expect(children).toHaveLength(1)
    const childResult = children[0]?.events.find((event) => event.type === 'tool/result')
    const refused = childResult === undefined ? undefined : eventMessage(childResult)
    expect(refused).toMatchObject({ role: 'tool', isError: true })
    expect(refused === undefined ? '' : messageText(refused)).toBe(
      'Cannot start a subagent: this session is at delegation depth 1 and the limit is 1. Do this work directly with your own tools.',
    )
    expect(childrenOf(f, children[0]?.header.id ?? '')).toHaveLength(0)
    expect(f.requests[1]?.messages.find((m) => m.role === 'tool')?.content).toMatch(/^did it myself\n\nSubagent session: /)
  })

  it('maxDepth 0 disables delegation at the top level', async () => {
    f = await fixture({ maxDepth: 0, childScript: { responses: [] } })
    const parent = await f.parent({ responses: [{ toolCalls: [delegate] }, { text: 'ok' }] })
    await parent.prompt('go')
    expect(childrenOf(f, parent.session.id)).toHaveLength(0)
    expect(f.requests[1]?.messages.find((m) => m.role === 'tool')?.content).toBe(
      'Cannot start a subagent: this session is at delegation depth 0 and the limit is 0. Do this work directly with your own tools.',
    )
  })
})
