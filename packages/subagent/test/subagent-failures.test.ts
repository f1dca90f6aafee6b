// Children that do not complete: model failure, step limit, cancellation of the parent; and no agent at all.
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolFinalOutcome } from '@dsh/contracts'
import { runToolCall } from '@dsh/runtime'
import { childrenOf, erased, fixture, hangTool, type Fixture } from './helpers.ts'

let f: Fixture | undefined
afterEach(async () => {
  await f?.dispose()
  f = undefined
})

const delegate = { name: 'subagent', arguments: { prompt: 'Do the thing.' } }

function lastToolResult(fixtureUnderTest: Fixture): { content: string | null } | undefined {
  return fixtureUnderTest.requests[1]?.messages.find((m) => m.role === 'tool')
}

describe('subagent failures', () => {
  it('a child whose model fails surfaces as an error result naming the failure', async () => {
    f = await fixture({ childScript: { responses: [] } })
    const outcomes: ToolFinalOutcome[] = []
    f.host.ctx.on('tools/result', (exec, outcome) => {
      if (exec.name === 'subagent') outcomes.push(outcome)
    })
    const parent = await f.parent({ responses: [{ toolCalls: [delegate] }, { text: 'recovered' }] })
    expect((await parent.prompt('go')).finalText).toBe('recovered')
    const childId = childrenOf(f, parent.session.id)[0]?.header.id ?? ''
    expect(outcomes[0]).toMatchObject({ isError: true, status: 'failed', meta: { childSession: childId, reason: 'error' } })
    expect(lastToolResult(f)?.content).toBe(
      `The subagent failed: child script: ran out of responses at turn 1, step 1 (the script has 0; add one for this model call). Do the task directly, or delegate it again with a narrower prompt.\n\nSubagent session: ${childId}`,
    )
  })

  it('a child that hits its step limit is an error result with its last message', async () => {
    f = await fixture({ childMaxSteps: 1, childScript: { responses: [{ text: 'still looking', toolCalls: [{ name: 'noop', arguments: {} }] }] } })
    const parent = await f.parent({ responses: [{ toolCalls: [delegate] }, { text: 'ok' }] })
    await parent.prompt('go')
    const childId = childrenOf(f, parent.session.id)[0]?.header.id ?? ''
    expect(lastToolResult(f)?.content).toBe(
      `The subagent reached its step limit before finishing. Split the task into smaller delegations, or do it directly.\n\nIts last message:\nstill looking\n\nSubagent session: ${childId}`,
    )
  })

  it('cancelling the parent cancels the child', async () => {
    const controller = new AbortController()
    let childToolStarted = false
    const hang = hangTool(() => {
      childToolStarted = true
      controller.abort()
    })
    f = await fixture({ extraTools: [erased(hang)], childScript: { responses: [{ toolCalls: [{ name: 'hang', arguments: {} }] }] } })
    const parent = await f.parent({ responses: [{ toolCalls: [delegate] }] })
    const result = await parent.prompt('go', { signal: controller.signal })
    expect(childToolStarted).toBe(true)
    expect(result.reason).toBe('cancelled')
    const child = childrenOf(f, parent.session.id)[0]
    expect(child?.events.find((event) => event.type === 'turn/end')?.data).toEqual({ turn: 1, reason: 'cancelled' })
    expect(child?.events.find((event) => event.type === 'step/end')?.data).toEqual({ turn: 1, step: 1, aborted: true })
    expect(parent.session.events.find((event) => event.type === 'turn/end')?.data).toEqual({ turn: 1, reason: 'cancelled' })
  })

  it('outside an agent the tool explains that it needs one', async () => {
    f = await fixture({ childScript: { responses: [] } })
    const deps = { ctx: f.host.ctx, registry: f.host.tools, fs: undefined, cwd: f.cwd, log: () => undefined }
    const outcome = await runToolCall(deps, { callId: 'x', name: 'subagent', rawArguments: '{"prompt":"hi"}', signal: new AbortController().signal })
    expect(outcome).toMatchObject({ isError: true, content: 'The subagent tool only works inside an agent session. Do the task directly with the other tools.' })
  })
})
