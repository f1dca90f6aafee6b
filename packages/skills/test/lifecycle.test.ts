// The catalog over a session's life on a real host: a step an outer listener rejects delivers
// nothing and the catalog comes with the next prompt; later turns repeat nothing; compaction
// re-arms it; a resumed agent repeats nothing; a skill the model may not invoke is left out of the
// catalog but still invocable by a person.
import { afterEach, describe, expect, it } from 'vitest'
import { RootRegistry } from '@dsh/multi-root-workspace'
import { catalogMessages, skillFile, skillsRig, type Rig } from './support/rig.ts'

let rig: Rig
afterEach(async () => rig?.dispose())

const spec = {
  'repo/.git/': null,
  'repo/.dsh/skills/deploy/SKILL.md': skillFile('deploy', 'Deploy.'),
  'repo/.dsh/skills/secret/SKILL.md': skillFile('secret', 'People only.', 'x\n', 'disable-model-invocation: true\n'),
}

describe('catalog lifecycle', () => {
  it('a rejected step delivers nothing; the next prompt gets the catalog once; compaction re-arms it; a resume repeats nothing', async () => {
    rig = await skillsRig(spec)
    let reject = true
    rig.host.ctx.on('agent/pre-step', async (_payload, next) => {
      const decision = await next()
      if (!reject) return decision
      reject = false
      return { kind: 'reject' }
    })
    const agent = await rig.start('repo', { responses: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] })
    expect((await agent.prompt('first')).reason).toBe('blocked')
    expect(catalogMessages(agent.session)).toEqual([])
    await agent.prompt('second')
    await agent.prompt('third')
    const texts = catalogMessages(agent.session).map((message) => message.text)
    expect(texts).toHaveLength(1)
    expect(texts[0]).toContain('- deploy: Deploy. (folder: .dsh/skills/deploy)')
    expect(texts[0]).not.toContain('secret')
    expect(agent.compact()).toBe(true)
    const id = agent.session.id
    agent.dispose()
    const resumed = await rig.start('repo', { responses: [{ text: 'four' }, { text: 'five' }] }, { resume: id })
    await resumed.prompt('fourth')
    await resumed.prompt('fifth')
    const after = catalogMessages(resumed.session)
    expect(after).toHaveLength(2)
    expect(after[1]?.changes).toEqual([{ action: 'set', key: 'deploy', digest: after[0]?.changes[0]?.digest, bytes: after[0]?.changes[0]?.bytes }])
  })

  it('lists the skills at the top of an additional root after the project\'s, and the skill tool reads them', async () => {
    rig = await skillsRig({ ...spec, 'lib/.agents/skills/lint/SKILL.md': skillFile('lint', 'Lint the library.', 'Run the linter in ${SKILL_DIR}.\n'), 'lib/.agents/skills/deploy/SKILL.md': skillFile('deploy', 'Loses to the project.') }, {}, { multiRoot: true })
    await new RootRegistry({ dshHome: rig.tree.path('home') }).add(rig.tree.path('repo'), rig.tree.path('lib'))
    const agent = await rig.start('repo', { responses: [{ toolCalls: [{ name: 'skill', arguments: { name: 'lint' } }] }, { text: 'done' }] })
    await agent.prompt('go')
    const [catalog] = catalogMessages(agent.session)
    expect(catalog?.text).toContain(`- deploy: Deploy. (folder: .dsh/skills/deploy)\n- lint: Lint the library. (folder: ${rig.tree.path('lib/.agents/skills/lint')})`)
    expect(catalog?.text).not.toContain('Loses to the project')
    const tool = rig.requests[1]?.messages.find((message) => message.role === 'tool')?.content
    expect(tool).toContain(`Run the linter in ${rig.tree.path('lib/.agents/skills/lint')}.`)
  })
})
