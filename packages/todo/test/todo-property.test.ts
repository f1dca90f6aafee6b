// Any sequence of writes, plain turns, compactions and resumes, on a real host: the fold always
// holds the latest list written, and every request after it shows that list to the model (the
// call's result or one reminder) unless everything in it is done; never two reminders at once.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createScriptedProvider } from '@dsh/llm-scripted'
import type { Agent } from '@dsh/runtime'
import { todoListOf, todoReminder, todoResult, type TodoItem } from '../src/index.ts'
import { todoRig, toolTexts, userTexts, write } from './rig.ts'

type Action = { readonly kind: 'write'; readonly todos: TodoItem[] } | { readonly kind: 'plain' } | { readonly kind: 'compact' } | { readonly kind: 'resume' }

const itemArb = fc.record({ content: fc.constantFrom('Read', 'Fix', 'Test', 'Ship', 'Tidy up'), status: fc.constantFrom('pending' as const, 'completed' as const) })
const listArb = fc.array(itemArb, { maxLength: 4 }).map((items) => items.map((item, index) => (index === 0 && item.status === 'pending' ? { ...item, status: 'in_progress' as const } : item)))
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  listArb.map((todos) => ({ kind: 'write' as const, todos })),
  fc.constant({ kind: 'plain' as const }),
  fc.constant({ kind: 'compact' as const }),
  fc.constant({ kind: 'resume' as const }),
)

describe('the list over a session', () => {
  it('is the latest written, and the model sees it while something is left to do', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(actionArb, { minLength: 1, maxLength: 8 }), async (actions) => {
        const rig = await todoRig()
        try {
          let agent: Agent = await rig.start({ responses: [] })
          let latest: TodoItem[] = []
          for (const action of actions) {
            if (action.kind === 'compact') {
              agent.compact()
              continue
            }
            if (action.kind === 'resume') {
              const id = agent.session.id
              agent.dispose()
              agent = await rig.start({ responses: [] }, { resume: id })
              continue
            }
            agent.setProvider(createScriptedProvider({ responses: action.kind === 'write' ? [write(action.todos), { text: 'ok' }] : [{ text: 'ok' }] }))
            const before = rig.requests.length
            await agent.prompt('go')
            if (action.kind === 'write') latest = action.todos
            expect(todoListOf(agent.session).items).toEqual(latest)
            const request = rig.requests.at(-1)
            const reminders = userTexts(request).filter((text) => text.includes('The todo list you kept'))
            expect(reminders.length).toBeLessThanOrEqual(1)
            const open = latest.some((item) => item.status !== 'completed')
            if (open) expect(toolTexts(request).includes(todoResult(latest)) || reminders.includes(todoReminder(latest))).toBe(true)
            expect(rig.requests.length).toBeGreaterThan(before)
          }
        } finally {
          await rig.dispose()
        }
      }),
      { numRuns: 60 },
    )
  }, 60_000)
})
