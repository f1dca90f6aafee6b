// The approval bridge: questions reach the live session that owns the call, the page's three
// answers become the pipeline's decisions, and every question is settled exactly once whatever
// happens first (an answer, the call's cancel, the session closing) — a fast-check state machine.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { PermissionDecision, ToolExecution } from '@dsh/contracts'
import { createApprovalBridge, type ApprovalView } from '../src/approval-bridge.ts'

function execution(sessionId: string | undefined, name: string, args: unknown, signal = new AbortController().signal): ToolExecution {
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the bridge reads only the id of the agent handle
  const agent = sessionId === undefined ? undefined : ({ id: sessionId } as ToolExecution['agent'])
  return { callId: 'c', name, arguments: args, signal, token: Symbol('t'), ...(agent === undefined ? {} : { agent }) }
}

describe('approval bridge', () => {
  it('shows a bash question to its session and turns the three answers into decisions', async () => {
    const bridge = createApprovalBridge()
    const shown: ApprovalView[] = []
    bridge.attach('s1', { show: (view) => shown.push(view), withdraw: () => undefined })
    const once = bridge.askPermission(execution('s1', 'bash', { command: 'npm test' }), 'permission mode ask asks before running bash')
    expect(shown).toEqual([{ id: expect.any(String), callId: 'c', tool: 'bash', code: 'npm test', reason: 'permission mode ask asks before running bash', always: { kind: 'command-prefix', prefix: 'npm test' }, alwaysTool: false }])
    expect(bridge.answer('s2', shown[0]?.id ?? '', 'once')).toBe('unknown')
    expect(bridge.answer('s1', shown[0]?.id ?? '', 'always-tool')).toBe('not-offered')
    expect(bridge.answer('s1', shown[0]?.id ?? '', 'once')).toBe('answered')
    expect(await once).toEqual({ kind: 'allow-once' })
    const always = bridge.askPermission(execution('s1', 'run_code', { code: 'console.log(1)' }), undefined)
    bridge.answer('s1', shown[1]?.id ?? '', 'always')
    expect(await always).toEqual({ kind: 'allow-always', scope: { kind: 'tool' } })
    const reject = bridge.askPermission(execution('s1', 'bash', { command: 'rm -rf build && make' }), undefined)
    // Asked about bash before (the first question): the whole tool is on offer besides the parts.
    expect(shown[2]).toMatchObject({ always: { kind: 'command-prefixes', prefixes: ['rm', 'make'] }, alwaysTool: true })
    bridge.answer('s1', shown[2]?.id ?? '', 'reject', '  use   the Makefile target instead ')
    expect(await reject).toEqual({ kind: 'reject', note: 'use the Makefile target instead' })
    expect(bridge.pending('s1')).toEqual([])
  })

  it('offers a compound command the prefixes of its parts, never the whole tool on its first question', async () => {
    const bridge = createApprovalBridge()
    const shown: ApprovalView[] = []
    bridge.attach('s1', { show: (view) => shown.push(view), withdraw: () => undefined })
    const first = bridge.askPermission(execution('s1', 'bash', { command: 'git status && npm test' }), undefined)
    expect(shown[0]).toMatchObject({ always: { kind: 'command-prefixes', prefixes: ['git status', 'npm test'] }, alwaysTool: false })
    expect(bridge.answer('s1', shown[0]?.id ?? '', 'always-tool')).toBe('not-offered')
    expect(bridge.answer('s1', shown[0]?.id ?? '', 'always')).toBe('answered')
    expect(await first).toEqual({ kind: 'allow-always', scope: { kind: 'command-prefixes', prefixes: ['git status', 'npm test'] } })
    const unreadable = bridge.askPermission(execution('s1', 'bash', { command: 'ls "$(pwd)" | wc -l' }), undefined)
    expect(shown[1]).toMatchObject({ alwaysTool: true })
    expect(shown[1]?.always).toBeUndefined()
    expect(bridge.answer('s1', shown[1]?.id ?? '', 'always')).toBe('not-offered')
    expect(bridge.answer('s1', shown[1]?.id ?? '', 'always-tool')).toBe('answered')
    expect(await unreadable).toEqual({ kind: 'allow-always', scope: { kind: 'tool' } })
    // Another session counts its own questions.
    bridge.attach('s2', { show: (view) => shown.push(view), withdraw: () => undefined })
    void bridge.askPermission(execution('s2', 'bash', { command: 'git status && npm test' }), undefined)
    expect(shown[2]).toMatchObject({ alwaysTool: false })
  })

  it('offers a fetch its host, and the whole web_fetch tool from its second question', async () => {
    const bridge = createApprovalBridge()
    const shown: ApprovalView[] = []
    bridge.attach('s1', { show: (view) => shown.push(view), withdraw: () => undefined })
    const first = bridge.askPermission(execution('s1', 'web_fetch', { url: 'https://Example.COM/docs' }), undefined)
    expect(shown[0]).toMatchObject({ tool: 'web_fetch', always: { kind: 'domain', host: 'example.com' }, alwaysTool: false })
    expect(bridge.answer('s1', shown[0]?.id ?? '', 'always-tool')).toBe('not-offered')
    expect(bridge.answer('s1', shown[0]?.id ?? '', 'always')).toBe('answered')
    expect(await first).toEqual({ kind: 'allow-always', scope: { kind: 'domain', host: 'example.com' } })
    const second = bridge.askPermission(execution('s1', 'web_fetch', { url: 'https://other.example/' }), undefined)
    expect(shown[1]).toMatchObject({ always: { kind: 'domain', host: 'other.example' }, alwaysTool: true })
    expect(bridge.answer('s1', shown[1]?.id ?? '', 'always-tool')).toBe('answered')
    expect(await second).toEqual({ kind: 'allow-always', scope: { kind: 'tool' } })
  })

  it('rejects, with a note for the model, a call no open session owns', async () => {
    const bridge = createApprovalBridge()
    expect(await bridge.askPermission(execution('child-session', 'bash', { command: 'ls' }), undefined)).toEqual({ kind: 'reject', note: 'nobody could be asked: only the sessions open on the dsh web page can approve calls' })
    expect(await bridge.askPermission(execution(undefined, 'bash', { command: 'ls' }), undefined)).toMatchObject({ kind: 'reject' })
  })

  it('rejects at once, without showing it, a question whose call was cancelled before it was asked', async () => {
    const bridge = createApprovalBridge()
    const shown: ApprovalView[] = []
    bridge.attach('s1', { show: (view) => shown.push(view), withdraw: () => undefined })
    const controller = new AbortController()
    controller.abort()
    const answer = bridge.askPermission(execution('s1', 'bash', { command: 'ls' }, controller.signal), undefined)
    const waited = await Promise.race([answer, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 200))])
    expect(waited).toEqual({ kind: 'reject' })
    expect(shown).toEqual([])
    expect(bridge.pending('s1')).toEqual([])
  })

  it('settles every question exactly once, whatever comes first', async () => {
    type Step = { readonly kind: 'ask'; readonly session: number } | { readonly kind: 'answer'; readonly index: number; readonly choice: 'once' | 'always' | 'reject' } | { readonly kind: 'abort'; readonly index: number } | { readonly kind: 'detach'; readonly session: number }
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('ask' as const), session: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ kind: fc.constant('answer' as const), index: fc.nat(12), choice: fc.constantFrom('once' as const, 'always' as const, 'reject' as const) }),
      fc.record({ kind: fc.constant('abort' as const), index: fc.nat(12) }),
      fc.record({ kind: fc.constant('detach' as const), session: fc.integer({ min: 0, max: 2 }) }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), async (steps) => {
        const bridge = createApprovalBridge()
        const visible = new Map<string, Set<string>>()
        const detachers = new Map<number, () => void>()
        for (const session of [0, 1, 2]) {
          const ids = new Set<string>()
          visible.set(`s${session}`, ids)
          detachers.set(session, bridge.attach(`s${session}`, { show: (view) => ids.add(view.id), withdraw: (id) => ids.delete(id) }))
        }
        const asked: { session: string; controller: AbortController; settled: (boolean | PermissionDecision)[]; id: string | undefined }[] = []
        for (const item of steps) {
          if (item.kind === 'ask') {
            const controller = new AbortController()
            const entry: (typeof asked)[number] = { session: `s${item.session}`, controller, settled: [], id: undefined }
            const before = new Set(visible.get(entry.session))
            void bridge.askPermission(execution(entry.session, 'bash', { command: 'ls' }, controller.signal), undefined).then((decision) => entry.settled.push(decision))
            entry.id = [...(visible.get(entry.session) ?? [])].find((id) => !before.has(id))
            asked.push(entry)
          } else if (item.kind === 'answer') {
            const entry = asked[item.index]
            if (entry?.id !== undefined) bridge.answer(entry.session, entry.id, item.choice)
          } else if (item.kind === 'abort') asked[item.index]?.controller.abort()
          else detachers.get(item.session)?.()
        }
        for (const entry of asked) entry.controller.abort()
        for (const detach of detachers.values()) detach()
        await new Promise((resolve) => setImmediate(resolve))
        for (const entry of asked) expect(entry.settled).toHaveLength(1)
        for (const session of ['s0', 's1', 's2']) expect(bridge.pending(session)).toEqual([])
        for (const ids of visible.values()) expect(ids.size).toBe(0)
      }),
      { numRuns: 200 },
    )
  })
})
