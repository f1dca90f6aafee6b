// What the chat's /mode and /permissions change in the guard: a session's mode switches among the
// modes of the same sandbox (and only those), decisions and their events follow the new mode, and
// a session rule removed by the person stays removed in a resumed session (the removal is in the
// log). A property test: any sequence of "allow always" answers and removals, read back from the
// log by a new guard, gives exactly the rules the running guard had.
import { afterEach, describe, expect, it } from 'vitest'
import * as fc from 'fast-check'
import { z } from 'zod'
import type { PermissionDecision, PermissionMode, SessionEvent, SessionView, ToolDefinition } from '@dsh/contracts'
import { createScriptedProvider, type ModelScript } from '@dsh/llm-scripted'
import { createHost, dataOf, type Agent, type Host } from '@dsh/runtime'
import { tempTree, type TempTree } from '@dsh/testkit'
import { installPermissionGuard, modeSwitchRefusal, permissionModes, SessionRules, type PermissionGuard } from '../src/index.ts'
import { SessionModes } from '../src/session-modes.ts'

let tree: TempTree | undefined
let host: Host | undefined
afterEach(async () => {
  await host?.dispose()
  host = undefined
  await tree?.dispose()
  tree = undefined
})

function bashTool(ran: string[]): ToolDefinition<never> {
  const tool: ToolDefinition<{ command: string }> = {
    name: 'bash',
    description: 'Runs a command.',
    parameters: z.object({ command: z.string() }),
    execute: (args) => {
      ran.push(args.command)
      return Promise.resolve({ content: 'ran' })
    },
  }
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- ToolDefinition is invariant in A; the pipeline validates arguments before execute.
  return tool as unknown as ToolDefinition<never>
}

/** One turn per command: the call, then an answer that ends the turn. */
const bashCalls = (...commands: string[]): ModelScript => ({ responses: commands.flatMap((command) => [{ toolCalls: [{ name: 'bash', arguments: { command } }] }, { text: 'done' }]) })

async function rig(mode: PermissionMode, answers: PermissionDecision[] = []) {
  tree ??= await tempTree({ 'repo/': null })
  const ran: string[] = []
  const asked: string[] = []
  let guard: PermissionGuard | undefined
  host = await createHost({ dshHome: tree.path('home'), tools: [bashTool(ran)], log: () => undefined, askPermission: (execution, reason) => guard?.askPermission?.(execution, reason) ?? Promise.resolve(false) })
  guard = installPermissionGuard(host.ctx, {
    mode,
    rules: () => ({ allow: [], deny: [] }),
    sandboxAvailable: () => true,
    ask: (execution) => {
      asked.push(JSON.stringify(execution.arguments))
      return Promise.resolve(answers.shift() ?? { kind: 'reject' })
    },
    cwd: tree.path('repo'),
  })
  const current = host
  const controls = guard.controls
  const agentFor = (script: ModelScript, resume?: string): Promise<Agent> => current.startAgent({ cwd: tree?.path('repo') ?? '', provider: createScriptedProvider(script), ...(resume === undefined ? {} : { resume }) })
  /** A delegated session of `parent` (a subagent's, as the subagent tool starts it). */
  const childOf = (parent: Agent, script: ModelScript): Promise<Agent> => current.startAgent({ cwd: tree?.path('repo') ?? '', provider: createScriptedProvider(script), parentSession: parent.session.id })
  return { ran, asked, controls, agentFor, childOf }
}

const modesOf = (agent: Agent): string[] => agent.session.events.flatMap((event) => dataOf(event, 'tool/permission')?.mode ?? [])

/** The modes a session started in `start` may switch to. */
const allowed = (start: PermissionMode): PermissionMode[] => permissionModes.filter((mode) => modeSwitchRefusal(start, mode) === undefined)

describe('switching the mode of a running session', () => {
  it('ask → full-auto: the next bash call runs unasked and its event says full-auto; back to ask asks again', async () => {
    const r = await rig('ask', [{ kind: 'allow-once' }, { kind: 'allow-once' }])
    const agent = await r.agentFor(bashCalls('echo one', 'echo two', 'echo three'))
    await agent.prompt('first')
    expect(r.asked).toEqual(['{"command":"echo one"}'])
    expect(r.controls.setMode(agent.handle, 'full-auto')).toBeUndefined()
    expect(r.controls.mode(agent.handle)).toBe('full-auto')
    await agent.prompt('second')
    expect(r.asked).toHaveLength(1)
    expect(r.controls.setMode(agent.handle, 'ask')).toBeUndefined()
    await agent.prompt('third')
    expect(r.asked).toEqual(['{"command":"echo one"}', '{"command":"echo three"}'])
    expect(r.ran).toEqual(['echo one', 'echo two', 'echo three'])
    expect(modesOf(agent)).toEqual(['ask', 'full-auto', 'ask'])
  })

  it('refuses read-only and danger-full-access (another sandbox shape) and changes nothing', async () => {
    const r = await rig('auto-edit')
    const agent = await r.agentFor(bashCalls())
    expect(r.controls.setMode(agent.handle, 'danger-full-access')).toBe('danger-full-access needs a shell sandbox set up at start: start dsh again with --permission-mode danger-full-access')
    expect(r.controls.setMode(agent.handle, 'read-only')).toBe('read-only needs a shell sandbox set up at start: start dsh again with --permission-mode read-only')
    expect(r.controls.mode(agent.handle)).toBe('auto-edit')
  })

  it('from a start in read-only or danger-full-access, only the same mode is possible', () => {
    expect(allowed('read-only')).toEqual(['read-only'])
    expect(allowed('danger-full-access')).toEqual(['danger-full-access'])
    expect(allowed('ask')).toEqual(['ask', 'auto-edit', 'full-auto'])
    expect(modeSwitchRefusal('read-only', 'ask')).toBe('read-only needs a shell sandbox set up at start: start dsh again with --permission-mode ask')
  })
})

describe('the mode of a delegated session', () => {
  it('follows its parent\'s switch (tightening to ask tightens the subagents), until it is switched itself', async () => {
    const r = await rig('full-auto')
    const parent = await r.agentFor(bashCalls('echo parent'))
    await parent.prompt('first')
    expect(r.asked).toEqual([])
    expect(r.controls.setMode(parent.handle, 'ask')).toBeUndefined()
    const child = await r.childOf(parent, bashCalls('echo child', 'echo child again'))
    await child.prompt('delegated')
    expect(r.asked).toEqual(['{"command":"echo child"}'])
    expect(r.controls.mode(child.handle)).toBe('ask')
    expect(modesOf(child)).toEqual(['ask'])
    const grandchild = await r.childOf(child, bashCalls('echo grandchild'))
    await grandchild.prompt('delegated further')
    expect(r.asked).toEqual(['{"command":"echo child"}', '{"command":"echo grandchild"}'])
    expect(r.controls.setMode(child.handle, 'full-auto')).toBeUndefined()
    await child.prompt('again')
    expect(r.asked).toHaveLength(2)
    expect(r.ran).toEqual(['echo parent', 'echo child again'])
    expect(r.controls.mode(parent.handle)).toBe('ask')
    expect(r.controls.sessionMode(parent.session.id)).toBe('ask')
    expect(r.controls.sessionMode(grandchild.session.id)).toBe('full-auto')
  })

  it('by session id (an editor between prompts): switches and refuses as by agent', async () => {
    const r = await rig('ask')
    const agent = await r.agentFor(bashCalls('echo one'))
    expect(r.controls.setSessionMode(agent.session.id, 'full-auto')).toBeUndefined()
    await agent.prompt('first')
    expect(r.asked).toEqual([])
    expect(r.controls.setSessionMode(agent.session.id, 'read-only')).toBe('read-only needs a shell sandbox set up at start: start dsh again with --permission-mode read-only')
    expect(r.controls.mode(agent.handle)).toBe('full-auto')
    expect(r.controls.sessionMode('never-seen')).toBe('ask')
  })

  it('is the nearest switched ancestor\'s, else the start mode, for any tree of sessions and switches', () => {
    const switchable: PermissionMode[] = ['ask', 'auto-edit', 'full-auto']
    const action = fc.oneof(fc.record({ kind: fc.constant<'spawn'>('spawn'), parent: fc.nat() }), fc.record({ kind: fc.constant<'switch'>('switch'), session: fc.nat(), mode: fc.constantFrom(...switchable) }), fc.record({ kind: fc.constant<'decide'>('decide'), session: fc.nat() }))
    fc.assert(
      fc.property(fc.constantFrom(...switchable), fc.array(action, { maxLength: 40 }), (start, actions) => {
        const modes = new SessionModes(start)
        const parents: (number | undefined)[] = [undefined]
        const own = new Map<number, PermissionMode>()
        const view = (index: number): SessionView => {
          const parent = parents[index]
          const base = viewOf(`s${index}`, [])
          return parent === undefined ? base : { ...base, header: { ...base.header, parentSession: `s${parent}` } }
        }
        const expected = (index: number): PermissionMode => {
          for (let at: number | undefined = index; at !== undefined; at = parents[at]) {
            const mode = own.get(at)
            if (mode !== undefined) return mode
          }
          return start
        }
        for (const step of actions) {
          if (step.kind === 'spawn') {
            // A subagent is started by a call of its parent, which the guard decides first.
            const parent = step.parent % parents.length
            modes.of(view(parent))
            parents.push(parent)
            continue
          }
          const index = step.session % parents.length
          if (step.kind === 'switch') {
            expect(modes.set(view(index), step.mode)).toBeUndefined()
            own.set(index, step.mode)
          } else expect(modes.of(view(index))).toBe(expected(index))
        }
      }),
    )
  })
})

describe('removing a session rule', () => {
  it('asks again after the removal, and a resumed session in a new process stays without the rule', async () => {
    const always: PermissionDecision = { kind: 'allow-always', scope: { kind: 'command-prefix', prefix: 'npm test' } }
    const r = await rig('ask', [always])
    const agent = await r.agentFor(bashCalls('npm test', 'npm test -- -t x'))
    await agent.prompt('first')
    expect(r.controls.sessionRules(agent.handle)).toEqual(['bash(npm test:*)'])
    expect(r.controls.forget(agent.handle, 'bash(npm test:*)')).toBe(true)
    expect(r.controls.forget(agent.handle, 'bash(npm test:*)')).toBe(false)
    await agent.prompt('second')
    expect(r.asked).toEqual(['{"command":"npm test"}', '{"command":"npm test -- -t x"}'])
    const id = agent.session.id
    agent.dispose()
    await host?.dispose()
    host = undefined
    const again = await rig('ask')
    const resumed = await again.agentFor(bashCalls('npm test'), id)
    expect(again.controls.sessionRules(resumed.handle)).toEqual([])
    await resumed.prompt('third')
    expect(again.asked).toEqual(['{"command":"npm test"}'])
  })
})

/** A session view over hand-made events (what SessionRules reads: the header id and the events). */
function viewOf(id: string, events: SessionEvent[]): SessionView {
  return { header: { type: 'session', version: 1, id, createdAt: '', cwd: '/work', delegationDepth: 0 }, events, surface: [], replaceGeneration: 0, eventBySeq: (seq) => events[seq - 1] }
}

describe('session rules read back from the log', () => {
  it('equal the rules of the running guard after any sequence of answers and removals', () => {
    const rules = ['bash(npm test:*)', 'bash(git status:*)', 'run_code', 'bash(make:*)']
    const step = fc.oneof(fc.record({ kind: fc.constant<'add'>('add'), rule: fc.constantFrom(...rules) }), fc.record({ kind: fc.constant<'remove'>('remove'), rule: fc.constantFrom(...rules) }))
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const events: SessionEvent[] = []
        const live = new SessionRules()
        const view = viewOf('s1', events)
        live.of(view)
        for (const { kind, rule } of steps) {
          const seq = events.length + 1
          if (kind === 'add') {
            live.add(view, { text: rule, tool: rule.split('(')[0] ?? rule })
            events.push({ type: 'tool/permission', seq, time: '', data: { callId: `c${seq}`, tool: 'bash', mode: 'ask', decision: 'allow', by: 'answer', remember: rule } })
          } else if (live.remove(view, rule)) {
            events.push({ type: 'permissions/forget', seq, time: '', data: { rule } })
          }
        }
        const replayed = new SessionRules().of(viewOf('s1', events)).map((rule) => rule.text)
        expect(replayed).toEqual(live.of(view).map((rule) => rule.text))
      }),
    )
  })
})
