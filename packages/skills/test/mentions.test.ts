// A nested skill folder joins when the person @-mentions a path in its directory, as a touch
// joins it: the first request of the turn already lists the nested skill (qualified when its
// name is taken), before the model has read anything.
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatRequestBody } from '@dsh/contracts'
import { skillFile, skillsRig, type Rig } from './support/rig.ts'

let rig: Rig
afterEach(async () => rig?.dispose())

const userTexts = (body: ChatRequestBody | undefined): string[] => (body?.messages ?? []).filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : ''))

describe('@ mentions and nested skills', () => {
  it('a mentioned directory joins its skills folders at the first step', async () => {
    rig = await skillsRig({
      'repo/.git/': null,
      'repo/.dsh/skills/deploy/SKILL.md': skillFile('deploy', 'Deploy the whole app.'),
      'repo/pkg/web/.dsh/skills/deploy/SKILL.md': skillFile('deploy', 'Deploy the web package.'),
      'repo/pkg/web/app.ts': 'app\n',
    })
    const agent = await rig.start('repo', { responses: [{ text: 'done' }] })
    await agent.prompt('ship @pkg/web/app.ts')
    const catalog = userTexts(rig.requests[0]).find((text) => text.includes('Skills available in this workspace.')) ?? ''
    expect(catalog).toContain('- deploy: Deploy the whole app. (folder: .dsh/skills/deploy)')
    expect(catalog).toContain('- pkg/web:deploy: Deploy the web package. (folder: pkg/web/.dsh/skills/deploy)')
  })

  it('without a mention the nested folder waits for a touch', async () => {
    rig = await skillsRig({ 'repo/.git/': null, 'repo/.dsh/skills/deploy/SKILL.md': skillFile('deploy', 'Deploy the whole app.'), 'repo/pkg/web/.dsh/skills/bundle/SKILL.md': skillFile('bundle', 'Bundle the web package.') })
    const agent = await rig.start('repo', { responses: [{ text: 'done' }] })
    await agent.prompt('ship pkg/web')
    expect(userTexts(rig.requests[0]).join('\n')).not.toContain('bundle')
  })
})
