// Mounted with enabled: false the guard contributes nothing: the requests are byte-identical to
// a host without it, whatever else its config says.
import { afterEach, describe, expect, it } from 'vitest'
import { call, rig, type Rig } from './support/rig.ts'

const rigs: Rig[] = []
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.dispose()
})

const SPEC = { 'repo/.dsh-maintainer-doc-guard/plan.md': 'Plan.\n', 'repo/.dsh/skills/a/SKILL.md': '# a\n' }
const SCRIPT = [call('write', { file_path: '.dsh/skills/b/SKILL.md', content: '# b\n' }), call('bash', { command: 'echo x > .dsh-maintainer-doc-guard/plan.md' }), { text: 'done' }]

async function requestsOf(options: Parameters<typeof rig>[1]): Promise<string> {
  const r = await rig(SPEC, options)
  rigs.push(r)
  const agent = await r.start(SCRIPT)
  await agent.prompt('Do {{it}}.')
  return JSON.stringify(r.requests).replaceAll(r.tree.root, '<root>')
}

describe('composition', () => {
  it('with enabled: false, sends exactly what a host without the guard sends', async () => {
    const without = await requestsOf({ withoutGuard: true })
    const off = await requestsOf({ config: { enabled: false, anchor: { delivery: 'message' }, nudge: { grace: 0 } } })
    expect(off).toBe(without)
    expect(without).not.toContain('Blocked by maintainer-doc-guard')
    expect(without).not.toContain('Maintainer documents')
    const on = await requestsOf({})
    expect(on).not.toBe(without)
  })
})
