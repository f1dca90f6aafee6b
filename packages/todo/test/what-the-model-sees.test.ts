// The exact model-visible texts of the todo list: the tool's description, a result, the refusal
// of two items in progress, the reminder after a compaction (and that it comes once, and not for
// a finished list), through a real host and the scripted model.
import { afterEach, describe, expect, it } from 'vitest'
import { todoRig, toolTexts, userTexts, write, type Rig } from './rig.ts'

let rig: Rig
afterEach(async () => rig?.dispose())

const three = [
  { content: 'Read the failing test', status: 'completed' },
  { content: 'Fix the parser', status: 'in_progress' },
  { content: 'Run the suite', status: 'pending' },
] as const

describe('what the model sees', () => {
  it('the tool, its result and its refusal', async () => {
    rig = await todoRig()
    const agent = await rig.start({ responses: [write(three), write([...three, { content: 'Commit', status: 'in_progress' }]), { text: 'done' }] })
    await agent.prompt('fix it')
    const tool = rig.requests[0]?.tools?.find((entry) => entry.function.name === 'todo_write')
    expect(tool?.function.description).toBe(
      'Keeps the checklist of the task you are working on; the person sees it update as you go. Use it when the work takes three or more distinct steps or the person asks for several things: write the list as soon as you know the steps, set an item to in_progress when you start it (one at a time) and to completed as soon as it is done, and add the steps you discover. Every call sends the whole list, which replaces the previous one; an empty list clears it. Skip it for a task of one or two quick steps. The list is kept when the conversation is compacted.',
    )
    expect(toolTexts(rig.requests[2])).toEqual([
      'Todo list updated: 1 of 3 completed.\n[x] Read the failing test\n[>] Fix the parser\n[ ] Run the suite\nCarry on with: Fix the parser',
      'Only one item may be in_progress at a time, and 2 are: "Fix the parser", "Commit". Set the others to pending or completed and call todo_write again with the whole list.',
    ])
  })

  it('a finished list, an emptied one, and an item that is not one line', async () => {
    rig = await todoRig()
    const done = three.map((item) => ({ ...item, status: 'completed' as const }))
    const agent = await rig.start({ responses: [write(done), write([]), write([{ content: 'two\nlines', status: 'pending' }]), { text: 'ok' }] })
    await agent.prompt('go')
    const texts = toolTexts(rig.requests[3])
    expect(texts.slice(0, 2)).toEqual(['Todo list updated: all 3 completed.\n[x] Read the failing test\n[x] Fix the parser\n[x] Run the suite', 'Todo list cleared.'])
    expect(texts[2]).toContain('one line of text, not blank and without line breaks')
  })

  it('after a compaction the list comes back once, as a reminder after the prompt', async () => {
    rig = await todoRig()
    const agent = await rig.start({ responses: [write(three), { text: 'working' }, { text: 'next' }, { text: 'again' }] })
    await agent.prompt('fix it')
    expect(agent.compact()).toBe(true)
    await agent.prompt('go on')
    await agent.prompt('and on')
    const after = userTexts(rig.requests[2])
    expect(after.at(-2)).toBe('go on')
    expect(after.at(-1)).toBe(
      '<system-reminder>\nThe todo list you kept before the conversation was compacted (1 of 3 completed). Keep it up to date with todo_write:\n[x] Read the failing test\n[>] Fix the parser\n[ ] Run the suite\n</system-reminder>',
    )
    const later = userTexts(rig.requests[3])
    expect(later.filter((text) => text.includes('The todo list you kept'))).toHaveLength(1)
    expect(later.at(-1)).toBe('and on')
  })

  it('a finished list is not brought back, and a disabled plugin offers no tool', async () => {
    rig = await todoRig()
    const agent = await rig.start({ responses: [write(three.map((item) => ({ ...item, status: 'completed' as const }))), { text: 'all done' }, { text: 'hi' }] })
    await agent.prompt('fix it')
    agent.compact()
    await agent.prompt('thanks')
    expect(userTexts(rig.requests[2]).some((text) => text.includes('todo list'))).toBe(false)
    await rig.dispose()
    rig = await todoRig({ enabled: false })
    const plain = await rig.start({ responses: [{ text: 'hi' }] })
    await plain.prompt('hello')
    expect(rig.requests[0]?.tools?.some((entry) => entry.function.name === 'todo_write')).toBe(false)
  })

  it('a reminder item cannot close the reminder frame', async () => {
    rig = await todoRig()
    const agent = await rig.start({ responses: [write([{ content: 'Strip </system-reminder> tags', status: 'pending' }]), { text: 'ok' }, { text: 'ok' }] })
    await agent.prompt('go')
    agent.compact()
    await agent.prompt('more')
    expect(userTexts(rig.requests[2]).at(-1)).toContain('[ ] Strip <\\/system-reminder> tags')
  })
})
