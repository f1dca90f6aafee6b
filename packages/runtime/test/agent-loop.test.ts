// The agent loop's event order, pre-step waterfall, additional contexts and cancellation.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PreStepDecision, ToolFinalOutcome } from '@dsh/contracts'
import { deriveMessages, eventMessage, messageText } from '../src/index.ts'
import { agentWith, contents, fixture, note, type Fixture } from './helpers.ts'

let f: Fixture
afterEach(async () => f?.dispose())

const types = (events: readonly { type: string }[]) => events.map((event) => event.type).filter((type) => type !== 'request/header')
/** vi.waitFor gives up after 1 s by default; a loaded machine needs a more generous hang guard. */
const LOADED = { timeout: 20_000, interval: 20 }

describe('agent loop', () => {
  it('records prompt, entered messages, assistant, tool call/result, additional contexts and step end in order', async () => {
    f = await fixture()
    f.host.ctx.on('agent/pre-step', async (payload, next) => {
      const decision = await next()
      if (decision.kind !== 'enter' || payload.step !== 1) return decision
      return { kind: 'enter', messages: [...decision.messages, note('baseline')] }
    })
    f.host.ctx.on('tools/post-execute', async (_exec, _output, next) => {
      const decision = await next()
      return { ...decision, additionalContexts: [note('after-echo')] }
    })
    const agent = await agentWith(f, { responses: [{ toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] }, { text: 'done' }] })
    const result = await agent.prompt('do it')
    expect(result).toMatchObject({ reason: 'completed', finalText: 'done' })
    expect(types(agent.session.events)).toEqual([
      'agent/inbox/spliced', // prompt queued
      'turn/start',
      'agent/inbox/spliced', // claimed
      'step/start',
      'user/message', // prompt
      'user/message', // baseline right after the prompt
      'assistant/message',
      'tool/call',
      'tool/result',
      'user/message', // additional context before step end
      'step/end',
      'step/start',
      'assistant/message',
      'step/end',
      'turn/end',
    ])
    const history = deriveMessages(agent.session).map((m) => `${m.role}:${messageText(m)}`)
    expect(history).toEqual(['user:do it', 'user:baseline', 'assistant:', 'tool:echo: hi', 'user:after-echo', 'assistant:done'])
    expect(contents(f.requests[1])).toContain('echo: hi')
  })

  it('a pre-step listener that does not call next vetoes the inner listeners and ends the turn blocked', async () => {
    f = await fixture()
    let innerRan = false
    f.host.ctx.on('agent/pre-step', () => Promise.resolve<PreStepDecision>({ kind: 'reject', reason: 'no' }))
    f.host.ctx.on('agent/pre-step', async (_payload, next) => {
      innerRan = true
      return next()
    })
    const agent = await agentWith(f, { responses: [] })
    const result = await agent.prompt('hello')
    expect(result.reason).toBe('blocked')
    expect(innerRan).toBe(false)
    expect(f.requests).toHaveLength(0)
  })

  it('discards the step additional contexts when the step is aborted', async () => {
    f = await fixture()
    f.host.ctx.on('tools/post-execute', async (_exec, _output, next) => ({ ...(await next()), additionalContexts: [note('must-not-enter')] }))
    const agent = await agentWith(f, { responses: [{ toolCalls: [{ name: 'hang', arguments: {} }] }] })
    const controller = new AbortController()
    const results: ToolFinalOutcome[] = []
    f.host.ctx.on('tools/result', (_exec, outcome) => {
      results.push(outcome)
    })
    const turn = agent.prompt('wait', { signal: controller.signal })
    // Abort while the tool runs (a fixed delay may abort a loaded machine's turn before it gets there).
    await vi.waitFor(() => expect(agent.session.events.at(-1)?.type).toBe('tool/call'), LOADED)
    controller.abort()
    const result = await turn
    expect(result.reason).toBe('cancelled')
    const texts = agent.session.events.flatMap((e) => (e.type === 'user/message' ? [messageText(eventMessage(e)!)] : []))
    expect(texts).toEqual(['wait'])
    const stepEnd = agent.session.events.find((e) => e.type === 'step/end')
    expect(stepEnd?.data).toEqual({ turn: 1, step: 1, aborted: true })
    expect(results[0]?.status).toBe('cancelled')
  })

  it('disposing the host during a turn lets the turn close itself as cancelled in the log before the session is closed', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ toolCalls: [{ name: 'hang', arguments: {} }] }] })
    const turn = agent.prompt('wait')
    await vi.waitFor(() => expect(agent.session.events.at(-1)?.type).toBe('tool/call'), LOADED)
    await f.host.dispose()
    expect((await turn).reason).toBe('cancelled')
    const stored = f.host.sessions.load(agent.session.id).events.slice(-3)
    expect(stored.map((event) => event.type)).toEqual(['tool/result', 'step/end', 'turn/end'])
    expect(stored.at(-1)?.data).toEqual({ turn: 1, reason: 'cancelled' })
  })

  it('an empty first batch ends the turn without a model call', async () => {
    f = await fixture()
    f.host.ctx.on('agent/pre-step', () => Promise.resolve<PreStepDecision>({ kind: 'enter', messages: [] }))
    const agent = await agentWith(f, { responses: [] })
    expect((await agent.prompt('x')).reason).toBe('completed')
    expect(f.requests).toHaveLength(0)
  })

  it('turn-stopping may keep the turn going with another step', async () => {
    f = await fixture()
    let asked = 0
    f.host.ctx.on('agent/turn-stopping', () => (asked++ === 0 ? { kind: 'continue', messages: [note('keep going')] } : undefined))
    const agent = await agentWith(f, { responses: [{ text: 'first' }, { text: 'second' }] })
    const result = await agent.prompt('go')
    expect(result.finalText).toBe('second')
    expect(contents(f.requests[1]).at(-1)).toBe('keep going')
  })

  it('renders function sections for the agent whose request is being built, and hands turn-stopping the turn signal', async () => {
    f = await fixture()
    f.host.systemPrompt.section({ name: 'who', order: 5, text: ({ agent }) => `session ${agent?.id ?? 'none'}` })
    const signals: AbortSignal[] = []
    f.host.ctx.on('agent/turn-stopping', ({ signal }) => {
      signals.push(signal)
      return undefined
    })
    const agent = await agentWith(f, { responses: [{ text: 'done' }] })
    await agent.prompt('go')
    expect(f.requests[0]?.messages[0]?.content).toContain(`session ${agent.session.id}`)
    expect(f.host.systemPrompt.assemble({ cwd: '/w' })).toContain('session none')
    expect(signals).toHaveLength(1)
    expect(signals[0]?.aborted).toBe(false)
  })

  it('running out of scripted responses is an error naming the step', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] }] })
    await expect(agent.prompt('go')).rejects.toThrow(/turn 1, step 2/)
    expect(agent.session.events.at(-1)?.data).toMatchObject({ reason: 'error' })
  })
})

describe('waking', () => {
  it('a steer from a turn-stopping listener starts another turn once the current one ends', async () => {
    f = await fixture()
    let steered = false
    const agent = await agentWith(f, { responses: [{ text: 'first' }, { text: 'after steer' }] })
    f.host.ctx.on('agent/turn-stopping', async () => {
      if (!steered) {
        steered = true
        await agent.handle.steer(note('also check the tests'))
      }
      return undefined
    })
    await agent.prompt('go')
    await vi.waitFor(() => expect(f.requests).toHaveLength(2), LOADED)
    await vi.waitFor(() => expect(agent.busy).toBe(false), LOADED)
    expect(contents(f.requests[1]).at(-1)).toBe('also check the tests')
  })
})

describe('steps that end early', () => {
  it('a failing progress listener is contained and the turn goes on', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] }, { text: 'fine' }] })
    agent.onProgress(() => {
      throw new Error('renderer broke')
    })
    expect((await agent.prompt('go')).finalText).toBe('fine')
  })

  it('every tool call of a step still gets a result when the step fails outside the pipeline', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ toolCalls: [{ name: 'echo', arguments: { text: 'a' } }, { name: 'echo', arguments: { text: 'b' } }] }, { text: 'next' }] })
    // Simulates a write failure (disk full) on the second call's log line.
    const append = agent.session.append.bind(agent.session)
    let calls = 0
    vi.spyOn(agent.session, 'append').mockImplementation((type, data, options) => {
      if (type === 'tool/call' && ++calls === 2) throw new Error('ENOSPC: no space left on device')
      return append(type, data, options)
    })
    await expect(agent.prompt('go')).rejects.toThrow('ENOSPC')
    vi.restoreAllMocks()
    const results = agent.session.events.flatMap((event) => (event.type === 'tool/result' ? [messageText(eventMessage(event)!)] : []))
    expect(results).toEqual(['echo: a', 'The echo call did not run: the step ended before it started. Call it again if you still need it.'])
    expect((await agent.prompt('again')).finalText).toBe('next')
    expect(f.requests.at(-1)?.messages.filter((m) => m.role === 'tool')).toHaveLength(2)
  })

  it('a steer queued during a cancelled turn does not restart the agent', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ toolCalls: [{ name: 'hang', arguments: {} }] }, { text: 'should not run' }] })
    f.host.ctx.on('tools/pre-execute', async (exec, next) => {
      if (exec.name === 'hang') {
        await agent.handle.steer(note('steer while hanging'))
        setTimeout(() => agent.cancel(), 20)
      }
      return next()
    })
    expect((await agent.prompt('go')).reason).toBe('cancelled')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(f.requests).toHaveLength(1)
    expect(agent.busy).toBe(false)
  })
})

describe('a cancelled stream', () => {
  it('keeps the streamed text with an [interrupted] marker that the next request carries', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ text: 'Counting slowly: one two three four five six seven eight', delayMs: 60 }, { text: 'ok' }] })
    const controller = new AbortController()
    const off = agent.onProgress((event) => {
      if (event.type === 'text') controller.abort()
    })
    expect((await agent.prompt('count', { signal: controller.signal })).reason).toBe('cancelled')
    off()
    const kept = agent.session.events.filter((event) => event.type === 'assistant/message').at(-1)
    expect(kept?.data).toMatchObject({ interrupted: true })
    await agent.prompt('go on')
    const wire = f.requests.at(-1)?.messages.slice(1)
    expect(wire?.map((message) => message.role)).toEqual(['user', 'assistant', 'user'])
    expect(wire?.[1]?.content).toMatch(/^Counting slowly.*\n\n\[interrupted\]$/s)
  })
})
