// The fold's sources of truth: a resumed session keeps its list without a reminder, a hook's
// replacement of the arguments is the list that counts, a failed call changes nothing, and a list
// a run_code snippet wrote counts where the run_code result is (also when the snippet then failed).
import { afterEach, describe, expect, it } from 'vitest'
import { todoListOf } from '../src/index.ts'
import { todoRig, userTexts, write, type Rig } from './rig.ts'

let rig: Rig

/** A run_code snippet that writes one item with `status`, and then throws when `fail`. */
const snippet = (status: string, fail: boolean): string => `await tools.todo_write({ todos: [{ content: 'From the snippet', status: '${status}' }] })${fail ? "\nthrow new Error('later step broke')" : ''}\nreturn 'ok'`
afterEach(async () => rig?.dispose())

describe('the fold', () => {
  it('a resumed session holds the list and says nothing more of it', async () => {
    rig = await todoRig()
    const agent = await rig.start({ responses: [write([{ content: 'One', status: 'in_progress' }]), { text: 'ok' }] })
    await agent.prompt('go')
    const id = agent.session.id
    agent.dispose()
    const resumed = await rig.start({ responses: [{ text: 'again' }] }, { resume: id })
    expect(todoListOf(resumed.session)).toEqual({ items: [{ content: 'One', status: 'in_progress' }], shown: true })
    await resumed.prompt('more')
    expect(userTexts(rig.requests.at(-1)).some((text) => text.includes('todo list'))).toBe(false)
  })

  it('takes the list a hook replaced the arguments with, and ignores a refused call', async () => {
    rig = await todoRig()
    rig.host.ctx.on('tools/pre-execute', async (execution, next) => {
      const verdict = await next()
      if (execution.name !== 'todo_write' || verdict.kind !== 'allow') return verdict
      return { kind: 'allow', updatedArguments: { arguments: { todos: [{ content: 'From the hook', status: 'pending' }] }, by: 'test hook' } }
    })
    const agent = await rig.start({ responses: [write([{ content: 'From the model', status: 'pending' }]), { text: 'ok' }] })
    await agent.prompt('go')
    expect(todoListOf(agent.session).items).toEqual([{ content: 'From the hook', status: 'pending' }])
  })

  it('a call refused for two items in progress leaves the earlier list', async () => {
    rig = await todoRig()
    const two = [{ content: 'A', status: 'in_progress' }, { content: 'B', status: 'in_progress' }] as const
    const agent = await rig.start({ responses: [write([{ content: 'A', status: 'pending' }]), write(two), { text: 'ok' }] })
    await agent.prompt('go')
    expect(todoListOf(agent.session).items).toEqual([{ content: 'A', status: 'pending' }])
  })

  it('takes the list a run_code snippet wrote with tools.todo_write, also when the snippet fails after it', async () => {
    rig = await todoRig({}, { runCode: true })
    const agent = await rig.start({ responses: [write([{ content: 'Direct', status: 'pending' }]), { toolCalls: [{ name: 'run_code', arguments: { code: snippet('in_progress', false) } }] }, { text: 'ok' }] })
    await agent.prompt('go')
    expect(todoListOf(agent.session).items).toEqual([{ content: 'From the snippet', status: 'in_progress' }])
    agent.dispose()
    const failing = await rig.start({ responses: [{ toolCalls: [{ name: 'run_code', arguments: { code: snippet('completed', true) } }] }, { text: 'ok' }] }, { resume: agent.session.id })
    await failing.prompt('again')
    expect(todoListOf(failing.session).items).toEqual([{ content: 'From the snippet', status: 'completed' }])
  }, 60_000)
})
