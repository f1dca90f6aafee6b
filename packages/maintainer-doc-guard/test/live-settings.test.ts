// Live settings: editing $DSH_HOME/settings.yaml changes a gate in the middle of a session (hot
// reload), the switches namespace is shared the same way, and without a settings service the
// composition config stays in force.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { setTimeout as delay } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { LIVE_FIELDS, LiveSettingsSchema } from '../src/live-settings.ts'
import { SWITCH_NAMES, SwitchesSchema } from '../src/switches.ts'
import { createMaintainerDocGuard } from '../src/plugin.ts'
import { call, rig, toolTexts, type Rig } from './support/rig.ts'

let r: Rig | undefined
afterEach(async () => {
  await r?.dispose()
  r = undefined
})

async function until(check: () => boolean): Promise<void> {
  // Hang guard only: the watcher settles within milliseconds; 10 s means it never will.
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 10_000) throw new Error('settings were not reloaded')
    await delay(20)
  }
}

const writeBeta = call('write', { file_path: '.dsh/skills/beta/SKILL.md', content: '# beta\n' }, 'Writing the beta SKILL.md now.')

describe('live settings', () => {
  it('has exactly the ten fields and the seven switches', () => {
    expect(Object.keys(LiveSettingsSchema.shape)).toEqual([...LIVE_FIELDS])
    expect(LIVE_FIELDS).toHaveLength(10)
    expect(Object.keys(SwitchesSchema.shape)).toEqual([...SWITCH_NAMES])
  })

  it('turns the precedent gate off mid-session when settings.yaml changes', async () => {
    r = await rig({ 'repo/.dsh/skills/alpha/SKILL.md': '# alpha\n' }, { settings: true })
    const agent = await r.start([writeBeta, { text: 'one' }, writeBeta, { text: 'two' }])
    await agent.prompt('first')
    expect(toolTexts(r.requests[1])[0]).toContain('Blocked by maintainer-doc-guard')
    await writeFile(r.tree.path('home/settings.yaml'), 'maintainer-doc-guard:\n  gateEnabled: false\n')
    await until(() => !r!.guard.current().gate.enabled)
    await agent.prompt('second')
    expect(toolTexts(r.requests[3]).at(-1)).toBe('Created .dsh/skills/beta/SKILL.md (7 bytes).')
  })

  it('shares the switches through the settings file, and keeps the base without a settings service', async () => {
    r = await rig({}, { settings: true, config: { notices: { verify: false } } })
    expect(r.guard.switches.get()).toMatchObject({ verify: false, operatorDocsReadOnly: true, strictOnTopic: false })
    await mkdir(r.tree.path('home'), { recursive: true })
    await writeFile(r.tree.path('home/settings.yaml'), 'maintainer-doc-guard-switches:\n  operatorDocsReadOnly: false\n')
    await until(() => !r!.guard.switches.get().operatorDocsReadOnly)
    await r.guard.switches.set({ strictOnTopic: true })
    expect(await readFile(r.tree.path('home/settings.yaml'), 'utf8')).toBe('maintainer-doc-guard-switches:\n  operatorDocsReadOnly: false\n  strictOnTopic: true\n')
    await r.dispose()
    r = await rig({}, { settings: false, config: { gate: { maxDeniesPerTarget: 5 } } })
    expect(r.guard.current().gate.maxDeniesPerTarget).toBe(5)
    expect(r.guard.liveSettings()).toBeUndefined()
  })

  it('keeps the composition config, with one line, when another guard owns the namespaces', async () => {
    r = await rig({}, { settings: true })
    const warnings: string[] = []
    const second = createMaintainerDocGuard({ enabled: true, nudge: { afterSteps: 3 } }, { warn: (line) => warnings.push(line) })
    await r.host.ctx.plugin(second)
    await until(() => warnings.length > 0)
    expect(warnings[0]).toMatch(/^maintainer-doc-guard: live settings are unavailable, the composition config stays in force: /u)
    expect(second.current().nudge.afterSteps).toBe(3)
    expect(second.liveSettings()).toBeUndefined()
  })
})
