// Hooks in $DSH_HOME/settings.yaml are hot reloaded: a hook added to the file while the host runs
// guards the next call, and removing it lets calls through again.
import { writeFile } from 'node:fs/promises'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PreExecuteVerdict, ToolExecution } from '@dsh/contracts'
import { SettingsPlugin } from '@dsh/settings'
import { composeTestHost, tempTree, type TempTree, type TestHost } from '@dsh/testkit'
import { createHooksPlugin } from '../src/index.ts'

const WAIT = { timeout: 20_000, interval: 50 }

let tree: TempTree
let test: TestHost | undefined
afterEach(async () => {
  await test?.host.dispose()
  test = undefined
  await tree?.dispose()
})

function verdict(host: TestHost['host']): Promise<PreExecuteVerdict> {
  const execution: ToolExecution = { callId: 'c1', name: 'read', arguments: { file_path: 'a.txt' }, signal: new AbortController().signal, token: Symbol('c1') }
  return host.ctx.waterfall('tools/pre-execute', execution, () => Promise.resolve<PreExecuteVerdict>({ kind: 'allow' }))
}

describe('settings.yaml hooks', () => {
  it('apply while the host runs', async () => {
    tree = await tempTree({ 'repo/a.txt': 'a\n', 'home/settings.yaml': 'hooks: {}\n' })
    const file = tree.path('home/settings.yaml')
    test = await composeTestHost({ dshHome: tree.path('home'), writableRoots: [tree.path('repo')] })
    const lines: string[] = []
    await test.host.ctx.plugin(SettingsPlugin, { file, logger: (line: string) => lines.push(line) })
    await test.host.ctx.plugin(createHooksPlugin({ cwd: tree.path('repo'), dshHome: tree.path('home'), env: { PATH: process.env['PATH'] }, permissionMode: 'full-auto', warn: (line) => lines.push(line) }))
    expect(await verdict(test.host)).toEqual({ kind: 'allow' })
    await writeFile(file, 'hooks:\n  PreToolUse:\n    - matcher: Read\n      hooks:\n        - { type: command, command: "echo reads are off >&2; exit 2" }\n')
    await vi.waitFor(async () => expect(await verdict(test!.host)).toEqual({ kind: 'deny', reason: 'a PreToolUse hook blocked it: reads are off' }), WAIT)
    await writeFile(file, 'hooks: {}\n')
    await vi.waitFor(async () => expect(await verdict(test!.host)).toEqual({ kind: 'allow' }), WAIT)
    expect(lines).toEqual([])
  })
})
