// Observer hooks (RootChanged, InstructionsLoaded) run in the background one event after the other
// per session: a slow first run never lets the second overtake it, and settle waits for both.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createHookRunner } from '../src/hook-runner.ts'
import type { HookEntry } from '../src/hook-types.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

const entry = (command: string): HookEntry => ({ event: 'RootChanged', matcher: '', pattern: undefined, command, timeoutMs: 30_000, source: { kind: 'config', file: 'dsh.yaml' }, where: 'RootChanged[0].hooks[0]' })

describe('observer hook order', () => {
  it('the second event of a session starts after the first one ended', async () => {
    tree = await tempTree({ 'log/': null })
    const log = tree.path('log/changes.txt')
    const recorded: string[] = []
    const runner = createHookRunner({ cwd: tree.root, dshHome: tree.path('home'), env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, permissionMode: 'ask', warn: () => undefined })
    const target = { id: 's1', cwd: tree.root, recordEvent: (type: string) => void recorded.push(type) }
    // The first run is slow on purpose: without the per-session order the second one lands first.
    runner.observe('RootChanged', target, { change: 'missing' }, [entry(`sleep 0.3; echo first >> '${log}'`)])
    runner.observe('RootChanged', target, { change: 'available' }, [entry(`echo second >> '${log}'`)])
    await runner.settle('s1')
    expect(readFileSync(log, 'utf8')).toBe('first\nsecond\n')
    expect(recorded).toEqual(['hooks/run', 'hooks/run'])
  })
})
