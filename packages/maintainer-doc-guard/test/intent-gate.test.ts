// The intent gate and the drift check through the real kernel: the nudge → deny → give-up
// sequence of every turn, explained calls, grace 0 and a disabled nudge stage, dry run, the
// fail-open sensor, failed nudge delivery, and the drift check once per turn.
import { afterEach, describe, expect, it } from 'vitest'
import { runToolCall } from '@dsh/runtime'
import { z } from 'zod'
import { call, lastMessage, notices, rig, toolTexts, type Rig } from './support/rig.ts'

let r: Rig | undefined
afterEach(async () => {
  await r?.dispose()
  r = undefined
})

const bash = (text?: string) => call('bash', { command: 'echo hi > notes.txt' }, text)
const NUDGE =
  'maintainer-doc-guard: nothing was blocked this time; the bash call ran. It came without a word on what the step is for. Before your next step, write one short line: what it achieves, why it is needed now, and what result you expect and how you will tell. If you cannot state its value, stop and ask the user. The next unexplained call will be denied.'
const DENIAL =
  'The bash call was denied: Blocked by maintainer-doc-guard: you are about to run this bash command without having said what this step is for. Start with one short line that answers three things: what this step achieves, why it is needed now, and what result you expect and how you will tell. If you cannot state its value, ask the user instead of running it. Once you have written that line, retry the same call.'

describe('intent gate', () => {
  it('nudges the first unexplained call, denies the second, gives up on the third, and starts over next turn', async () => {
    r = await rig()
    const turn = [bash(), bash(), bash(), { text: 'done' }]
    const agent = await r.start([...turn, ...turn])
    await agent.prompt('first')
    await agent.prompt('second')
    for (const offset of [0, 4]) {
      expect(toolTexts(r.requests[offset + 1]).at(-1)).toBe('(no output)\n\n[Exit code: 0]')
      expect(lastMessage(r.requests[offset + 1])).toBe(NUDGE)
      expect(toolTexts(r.requests[offset + 2]).at(-1)).toBe(DENIAL)
      expect(toolTexts(r.requests[offset + 3]).at(-1)).toBe('(no output)\n\n[Exit code: 0]')
    }
    expect(r.guard.counters.snapshot().counts).toMatchObject({ nudged: 2, intentBlocked: 2, intentGaveUp: 2 })
  })

  it('promises a denial in the nudge only when the next unexplained call will get one', async () => {
    const quiet = NUDGE.replace(' The next unexplained call will be denied.', '')
    const cases = [
      { config: { nudge: { grace: 2 } }, expected: [[quiet], [NUDGE]] },
      { config: { intent: { maxBlocksPerTurn: 0 } }, expected: [[quiet], []] },
      { config: { intent: { dryRun: true } }, expected: [[quiet], []] },
    ]
    for (const { config, expected } of cases) {
      r = await rig({}, { config })
      const agent = await r.start([bash(), bash(), { text: 'done' }])
      await agent.prompt('go')
      expect([notices(r.requests[1]), notices(r.requests[2]).slice(1)]).toEqual(expected)
      await r.dispose()
      r = undefined
    }
  })

  it('lets a call through when the prose since the user spoke names what it touches', async () => {
    r = await rig()
    const agent = await r.start([bash('I will write notes.txt so the test fixture exists.'), { text: 'done' }])
    await agent.prompt('go')
    expect(notices(r.requests[1])).toEqual([])
    expect(r.guard.counters.snapshot().counts['nudged']).toBe(0)
  })

  it('needs minChars characters of prose, and only the last 4000 count', async () => {
    r = await rig({}, { config: { intent: { minChars: 60 } } })
    const short = await r.start([bash('I will write notes.txt now.'), { text: 'done' }])
    await short.prompt('go')
    expect(notices(r.requests[1])).toEqual([NUDGE])
    await r.dispose()
    r = await rig({ 'repo/a.md': 'a\n' })
    const buried = await r.start([call('read', { file_path: 'a.md' }, 'I will write notes.txt after reading a.md.'), call('read', { file_path: 'a.md' }, `Reading a.md again. ${'More reasoning. '.repeat(260)}`), bash(), { text: 'done' }])
    await buried.prompt('go')
    expect(notices(r.requests[3])).toEqual([NUDGE])
  })

  it('judges tools with destructive names like side effects', async () => {
    const removeFile = { name: 'remove_file', description: 'Removes a file.', parameters: z.object({ path: z.string() }), execute: () => Promise.resolve({ content: 'removed' }) }
    r = await rig({}, { extraTools: [removeFile] })
    const agent = await r.start([call('remove_file', { path: 'old.txt' }), { text: 'done' }])
    await agent.prompt('clean up')
    expect(toolTexts(r.requests[1])).toEqual(['removed'])
    expect(notices(r.requests[1])).toEqual([NUDGE.replace('the bash call ran', 'the remove_file call ran')])
  })

  it('does not count length alone as an explanation', async () => {
    r = await rig()
    const agent = await r.start([bash('Let me think about the overall situation for a moment here.'), { text: 'done' }])
    await agent.prompt('go')
    expect(notices(r.requests[1])).toEqual([NUDGE])
  })

  it('denies the first offence with grace 0, and when the nudge stage is off', async () => {
    for (const config of [{ nudge: { grace: 0 } }, { nudge: { enabled: false } }]) {
      r = await rig({}, { config })
      const agent = await r.start([bash(), { text: 'done' }])
      await agent.prompt('go')
      expect(toolTexts(r.requests[1])).toEqual([DENIAL])
      await r.dispose()
      r = undefined
    }
  })

  it('spends the same budgets without denying in dry run', async () => {
    r = await rig({}, { config: { intent: { dryRun: true } } })
    const agent = await r.start([bash(), bash(), bash(), { text: 'done' }])
    await agent.prompt('go')
    expect(toolTexts(r.requests[3]).every((text) => text.endsWith('[Exit code: 0]'))).toBe(true)
    expect(r.guard.counters.snapshot().counts).toMatchObject({ nudged: 1, intentBlocked: 0, intentWouldBlock: 1, intentGaveUp: 1 })
  })

  it('stands down for the turn when it has seen no assistant message (fail-open)', async () => {
    r = await rig()
    const agent = await r.start([])
    const deps = { ctx: r.host.ctx, registry: r.host.tools, fs: r.host.ctx.get('fs'), cwd: r.cwd, agent: agent.handle, log: () => undefined }
    const outcome = await runToolCall(deps, { callId: 'c1', name: 'bash', rawArguments: { command: 'echo hi' }, signal: new AbortController().signal })
    expect(outcome.status).toBe('ok')
    expect(r.guard.counters.snapshot().counts).toMatchObject({ intentDisarmed: 1, intentBlocked: 0, nudged: 0 })
  })

  it('treats a failed nudge delivery as a plain allow and counts it', async () => {
    r = await rig()
    const agent = await r.start([{ text: 'ready' }])
    await agent.prompt('hello')
    const handle = { ...agent.handle, inject: () => Promise.reject(new Error('inbox closed')) }
    const deps = { ctx: r.host.ctx, registry: r.host.tools, fs: r.host.ctx.get('fs'), cwd: r.cwd, agent: handle, log: () => undefined }
    const outcome = await runToolCall(deps, { callId: 'c1', name: 'bash', rawArguments: { command: 'echo hi' }, signal: new AbortController().signal })
    expect(outcome.status).toBe('ok')
    expect(r.guard.counters.snapshot().counts).toMatchObject({ nudgeFailed: 1, nudged: 0, intentBlocked: 0 })
    expect(r.warnings).toContain('maintainer-doc-guard: could not deliver the intent notice: inbox closed')
  })
})

const read = (text: string) => call('read', { file_path: 'a.md' }, text)

describe('drift check', () => {
  it('fires once per turn when the turn has run afterSteps steps since the user spoke', async () => {
    r = await rig({ 'repo/a.md': 'a\n' }, { config: { nudge: { afterSteps: 2 } } })
    const turn = [read('Reading a.md first.'), read('Reading a.md again.'), read('And a third time.'), read('Once more.'), { text: 'done' }]
    const agent = await r.start([...turn, ...turn])
    await agent.prompt('first')
    await agent.prompt('second')
    const drift = 'maintainer-doc-guard: 2 steps have run since the user last spoke. Restate in one line which part of the user\'s request the current step serves. If none does, stop and ask. If the plan has changed, say so and get agreement before you go on.'
    const arrived = r.requests.map((body) => lastMessage(body) === drift)
    expect(arrived).toEqual([false, false, true, false, false, false, false, true, false, false])
    expect(notices(r.requests[4]).filter((text) => text === drift)).toHaveLength(1)
    expect(notices(r.requests[9]).filter((text) => text === drift)).toHaveLength(2)
    expect(r.guard.counters.snapshot().counts['driftSkipDone']).toBeGreaterThan(0)
  })

  it('shares the reminder budget with the intent nudge', async () => {
    r = await rig({ 'repo/a.md': 'a\n' }, { config: { nudge: { afterSteps: 1, maxPerTurn: 1 } } })
    const agent = await r.start([bash(), read('Reading a.md.'), { text: 'done' }])
    await agent.prompt('go')
    expect(r.requests.flatMap(notices).filter((text) => text.includes('since the user last spoke'))).toEqual([])
    expect(r.guard.counters.snapshot().counts).toMatchObject({ nudged: 1, driftSkipBudget: 2 })
  })

  it('is off with afterSteps 0', async () => {
    r = await rig({ 'repo/a.md': 'a\n' }, { config: { nudge: { afterSteps: 0 } } })
    const agent = await r.start([read('Reading a.md.'), read('Again a.md.'), { text: 'done' }])
    await agent.prompt('go')
    expect(r.requests.flatMap(notices)).toEqual([])
    expect(r.guard.counters.snapshot().counts['driftSkipDisabled']).toBe(2)
  })
})
