// The catalog over a session's life on a real host: a step an outer listener rejects delivers
// nothing and the catalog comes with the next prompt; later turns repeat nothing; compaction
// re-arms it; a resumed agent repeats nothing; a skill the model may not invoke is left out of the
// catalog but still invocable by a person.
import { afterEach, describe, expect, it } from 'vitest'
import { createScriptedProvider } from '@dsh/llm-scripted'
import { RootRegistry } from '@dsh/multi-root-workspace'
import { call, catalogMessages, skillFile, skillsRig, type Rig } from './support/rig.ts'

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

  it('a nested skill joined on touch is re-armed by a compaction in the live session, and a resume keeps it without a word', async () => {
    rig = await skillsRig({ ...spec, 'repo/pkg/web/.agents/skills/build/SKILL.md': skillFile('build', 'Build the web app.'), 'repo/pkg/web/index.ts': 'export {}\n' })
    const agent = await rig.start('repo', { responses: [call('read', { file_path: rig.tree.path('repo/pkg/web/index.ts') }), { text: 'one' }, { text: 'two' }, { text: 'three' }] })
    await agent.prompt('first')
    await agent.prompt('second')
    const before = catalogMessages(agent.session).map((message) => message.text)
    expect(before).toHaveLength(2)
    expect(before[1]).toContain('New skills:\n- build: Build the web app. (folder: pkg/web/.agents/skills/build)')
    // Quiet steps said nothing; the compaction replaces the surface, so the next step sends everything once.
    expect(agent.compact()).toBe(true)
    await agent.prompt('third')
    const after = catalogMessages(agent.session).map((message) => message.text)
    expect(after).toHaveLength(3)
    expect(after[2]).toContain('- deploy: Deploy. (folder: .dsh/skills/deploy)\n- build: Build the web app. (folder: pkg/web/.agents/skills/build)')
    const id = agent.session.id
    agent.dispose()
    const resumed = await rig.start('repo', { responses: [{ text: 'four' }] }, { resume: id })
    await resumed.prompt('fourth')
    // The resumed session joins pkg/web again from the delivered catalog: nothing is new, nothing removed.
    expect(catalogMessages(resumed.session)).toHaveLength(3)
  })

  it('a compaction inside a long turn keeps the catalog where it was: every request carries it, none repeats it', async () => {
    rig = await skillsRig({ ...spec, 'repo/notes.txt': 'a long line of notes\n'.repeat(150) })
    const read = call('read', { file_path: rig.tree.path('repo/notes.txt') })
    const provider = createScriptedProvider({ responses: [read, read, read, read, { text: 'done' }] }, { contextWindow: 2500 })
    const agent = await rig.host.startAgent({ cwd: rig.tree.path('repo'), provider, autoCompact: { share: 0.5, useModel: false }, onRequest: (body) => rig.requests.push(body) })
    expect((await agent.prompt('read the notes')).reason).toBe('completed')
    // The surface was replaced (the fold starts over), and the catalog message kept after the prompt.
    expect(agent.session.events.some((event) => event.surfaceOp !== undefined && event.surfaceOp !== 'append')).toBe(true)
    expect(catalogMessages(agent.session)).toHaveLength(1)
    const withCatalog = rig.requests.map((body) => body.messages.some((message) => message.role === 'user' && message.content.includes('- deploy: Deploy. (folder: .dsh/skills/deploy)')))
    expect(withCatalog).toEqual(rig.requests.map(() => true))
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
