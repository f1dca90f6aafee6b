// The host names each session whose agent is disposed (`onSessionEnd`), once, so what a front end
// keeps per session (the CLI's private temp directory of shell commands) can go with it.
import { afterEach, expect, it } from 'vitest'
import { createScriptedProvider } from '@dsh/llm-scripted'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createHost, type Host } from '../src/index.ts'

let tree: TempTree | undefined
let host: Host | undefined
afterEach(async () => {
  await host?.dispose()
  await tree?.dispose()
})

it('onSessionEnd receives the id of each session whose agent is disposed, once', async () => {
  tree = await tempTree({ 'work/': null })
  const ended: string[] = []
  host = await createHost({ dshHome: tree.path('home'), log: () => undefined, onSessionEnd: (id) => ended.push(id) })
  const first = await host.startAgent({ cwd: tree.path('work'), provider: createScriptedProvider({ responses: [{ text: 'one' }] }) })
  const second = await host.startAgent({ cwd: tree.path('work'), provider: createScriptedProvider({ responses: [{ text: 'two' }] }) })
  first.dispose()
  first.dispose()
  expect(ended).toEqual([first.session.id])
  second.dispose()
  expect(ended).toEqual([first.session.id, second.session.id])
})
