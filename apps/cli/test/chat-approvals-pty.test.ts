// The permission question in the full-screen chat cannot be answered by someone who was writing
// a message when it appeared: the rest of the message and its Enter go to the message (queued),
// and the question waits for a deliberate answer. The built binary in a real pseudo-terminal.
import { existsSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { TempTree } from '@dsh/testkit'
import { runPty, type PtyStep } from './chat-harness.ts'
import { chatArgs, chatWorkspace, ctrlD, enter, ready, say } from './chat-steps.ts'
import { readRequests, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('the permission question and type-ahead', () => {
  it('a message typed across the question keeps its words and its Enter queues it; the question is answered only after a pause', async () => {
    const w = await chatWorkspace()
    tree = w.tree
    const marker = w.tree.path('APPROVED')
    const script = writeScript(w.tree.path('scripts'), 'typeahead.json', {
      responses: [{ text: 'Thinking about it for a moment.', delayMs: 150, toolCalls: [{ name: 'bash', arguments: { command: `touch ${marker}` } }] }, { text: 'Not touching it.' }, { text: 'Queued message answered.' }],
    })
    const message = 'please also check the tests and then the docs folder too thanks'
    const typing: PtyStep[] = message.split(' ').flatMap((word, index) => [{ send: index === 0 ? word : ` ${word}` }, { sleep: 0.12 }])
    const down = '\x1b[B'
    await runPty(
      chatArgs(w, script, '--request-log', w.log),
      [ready, ...say('go'), { expect: 'Thinking' }, ...typing, enter, { expect: 'queued › please also check' }, { sleep: 0.8 }, { send: `${down}${down}${down}${down}` }, { sleep: 0.1 }, enter, { expect: 'Queued message answered\\.' }, { sleep: 0.2 }, ctrlD, { exit: 0 }],
      { cwd: w.tree.root },
    )
    expect(existsSync(marker)).toBe(false)
    const requests = readRequests(w.log)
    expect(requests.map((request) => request.messages.filter((entry) => entry.role === 'user').at(-1)?.content)).toEqual(['go', 'go', message])
  })
})
