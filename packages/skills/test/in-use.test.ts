// Skills in use across a compaction, on a real host: the instructions of the skills the model
// called come back once after each compaction that took them (most recent first, read again with
// the arguments they were called with), never on a quiet step or a resume, within a byte budget
// that names what it leaves out; a skill gone since is named as gone.
import { rmSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import * as fc from 'fast-check'
import type { ChatRequestBody, SessionView } from '@dsh/contracts'
import { createScriptedProvider } from '@dsh/llm-scripted'
import { invokedEvent } from '../src/in-use.ts'
import { IN_USE_INTRO } from '../src/in-use-text.ts'
import { call, skillFile, skillsRig, type Rig } from './support/rig.ts'

let rig: Rig
afterEach(async () => rig?.dispose())

const spec = {
  'repo/.git/': null,
  'repo/.dsh/skills/deploy/SKILL.md': skillFile('deploy', 'Deploy the service.', 'Deploy $ARGUMENTS with ${SKILL_DIR}/go.sh, then watch the logs.\n'),
  'repo/.dsh/skills/review/SKILL.md': skillFile('review', 'Review a change.', 'Read the diff twice.\n'),
}

/** The in-use messages of the log (their texts), in order. */
function inUseTexts(session: SessionView): string[] {
  return session.events.flatMap((event) => {
    if (event.type !== 'user/message') return []
    const message: unknown = Reflect.get(Object(event.data), 'message')
    const source: unknown = Reflect.get(Object(message), 'source')
    if (Reflect.get(Object(source), 'plugin') !== 'skills' || Reflect.get(Object(source), 'form') !== 'snapshot') return []
    const content: unknown = Reflect.get(Object(message), 'content')
    return Array.isArray(content) ? [content.map((block: unknown) => String(Reflect.get(Object(block), 'text'))).join('')] : []
  })
}

/** The user-message texts of a request. */
const userTexts = (request: ChatRequestBody | undefined): string[] => (request?.messages ?? []).flatMap((message) => (message.role === 'user' && typeof message.content === 'string' ? [message.content] : []))

describe('skills in use across a compaction', () => {
  it('come back once after the compaction, most recent first, with their arguments; a quiet step and a resume repeat nothing; the next compaction brings them again', async () => {
    rig = await skillsRig(spec)
    const folder = rig.tree.path('repo/.dsh/skills/deploy')
    const agent = await rig.start('repo', { responses: [call('skill', { name: 'deploy', arguments: 'staging' }), { text: 'deployed' }, call('skill', { name: 'review' }), { text: 'reviewed' }, { text: 'three' }, { text: 'four' }] })
    await agent.prompt('deploy to staging')
    await agent.prompt('review it')
    expect(inUseTexts(agent.session)).toEqual([])
    expect(agent.compact()).toBe(true)
    const before = rig.requests.length
    await agent.prompt('go on')
    const expected = [
      '<system-reminder>',
      'The conversation was compacted. You had called these skills before that point, most recent first; their instructions, read again now, still apply where the task needs them (call the `skill` tool again for the files in a folder):',
      '',
      'Skill: review',
      'Folder: .dsh/skills/review',
      '',
      'Read the diff twice.',
      '',
      'Skill: deploy (arguments: staging)',
      'Folder: .dsh/skills/deploy',
      '',
      `Deploy staging with ${folder}/go.sh, then watch the logs.`,
      '</system-reminder>',
    ].join('\n')
    expect(inUseTexts(agent.session)).toEqual([expected])
    // In the first request after the compaction, after the catalog sent again.
    const first = userTexts(rig.requests[before])
    expect(first.at(-1)).toBe(expected)
    expect(first.at(-2)).toContain('Skills available in this workspace.')
    await agent.prompt('and more')
    expect(inUseTexts(agent.session)).toHaveLength(1)
    const id = agent.session.id
    agent.dispose()
    const resumed = await rig.start('repo', { responses: [{ text: 'five' }, { text: 'six' }] }, { resume: id })
    await resumed.prompt('after the resume')
    expect(inUseTexts(resumed.session)).toHaveLength(1)
    // The next compaction replaces the in-use message too: what it carried comes back again.
    expect(resumed.compact()).toBe(true)
    await resumed.prompt('after the second compaction')
    expect(inUseTexts(resumed.session)).toEqual([expected, expected])
  })

  it('names what the budget leaves out and what is gone, and a skill called after the compaction is not repeated', async () => {
    rig = await skillsRig({ ...spec, 'repo/.dsh/skills/notes/SKILL.md': skillFile('notes', 'Take notes.', `${'Write it down. '.repeat(20)}\n`) }, { maxInUseBytes: 200 })
    const agent = await rig.start('repo', { responses: [call('skill', { name: 'notes' }), call('skill', { name: 'review' }), call('skill', { name: 'deploy', arguments: 'prod' }), { text: 'done' }, call('skill', { name: 'review' }), { text: 'again' }, { text: 'later' }] })
    await agent.prompt('use them all')
    expect(agent.compact()).toBe(true)
    rmSync(rig.tree.path('repo/.dsh/skills/deploy'), { recursive: true })
    await agent.prompt('the review again')
    const [text] = inUseTexts(agent.session)
    expect(text).toContain('Skill: review\nFolder: .dsh/skills/review\n\nRead the diff twice.')
    expect(text).toContain('Left out to fit skills.maxInUseBytes (200 bytes): notes. Call the `skill` tool again with one of these names if its instructions still apply.')
    expect(text).toContain('No longer available: deploy (not in the skills catalog now).')
    // The review the model called again after the compaction is visible: the next compaction's message leaves it to that result.
    await agent.prompt('later')
    expect(inUseTexts(agent.session)).toHaveLength(1)
  })
})

describe('a skill only the person may invoke', () => {
  it('comes back after a compaction when the person invoked it with /name', async () => {
    rig = await skillsRig({ ...spec, 'repo/.dsh/skills/secret/SKILL.md': skillFile('secret', 'People only.', 'Rotate the keys.\n', 'disable-model-invocation: true\n') })
    const agent = await rig.start('repo', { responses: [{ text: 'rotated' }, { text: 'later' }] })
    // What `/secret` sends (expand.ts): the body, with its invocation recorded before the prompt.
    await agent.prompt('Rotate the keys.', { events: [invokedEvent('secret', '')] })
    expect(agent.compact()).toBe(true)
    await agent.prompt('and now?')
    expect(inUseTexts(agent.session)).toHaveLength(1)
    expect(inUseTexts(agent.session)[0]).toContain('Skill: secret\nFolder: .dsh/skills/secret\n\nRotate the keys.')
  })
})

describe('skills in use across an automatic compaction', () => {
  it('a long turn that compacts itself gets the instructions back at its next step', async () => {
    rig = await skillsRig({ ...spec, 'repo/big.txt': 'a line of a large file\n'.repeat(400) })
    const script = { responses: [call('skill', { name: 'deploy', arguments: 'staging' }), call('read', { file_path: rig.tree.path('repo/big.txt') }), call('read', { file_path: rig.tree.path('repo/big.txt') }), { text: 'done' }] }
    const agent = await rig.host.startAgent({ cwd: rig.tree.path('repo'), provider: createScriptedProvider(script, { contextWindow: 8000 }), autoCompact: { share: 0.5, useModel: false }, onRequest: (body) => rig.requests.push(body) })
    const result = await agent.prompt('deploy, then read the file twice')
    expect(result.reason).toBe('completed')
    const compactions = agent.session.events.filter((event) => event.type === 'user/message' && Reflect.get(Object(Reflect.get(Object(Reflect.get(Object(event.data), 'message')), 'source')), 'kind') === 'compaction')
    expect(compactions.length).toBeGreaterThan(0)
    const texts = inUseTexts(agent.session)
    expect(texts).toHaveLength(compactions.length)
    expect(texts[0]).toContain('Skill: deploy (arguments: staging)')
    expect(userTexts(rig.requests.at(-1)).some((text) => text === texts.at(-1))).toBe(true)
  })
})

describe('skills in use, any sequence (property)', () => {
  it('every skill the model called stays readable in each request, and an in-use message comes only after a compaction, once, without repeats', async () => {
    const op = fc.oneof(fc.constantFrom('deploy', 'review').map((key) => ({ kind: 'invoke' as const, key })), fc.constant({ kind: 'compact' as const }), fc.constant({ kind: 'quiet' as const }))
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        const local = await skillsRig(spec)
        try {
          const responses = ops.flatMap((item) => (item.kind === 'invoke' ? [call('skill', { name: item.key }), { text: 'ok' }] : item.kind === 'quiet' ? [{ text: 'ok' }] : []))
          const agent = await local.start('repo', { responses: [...responses, { text: 'end' }] })
          const called = new Set<string>()
          let compactions = 0
          let compactedSinceTurn = false
          for (const item of ops) {
            if (item.kind === 'compact') {
              // At rest there is something to compact once a turn ran.
              if (agent.compact()) {
                compactions += 1
                compactedSinceTurn = true
              }
              continue
            }
            const countBefore = inUseTexts(agent.session).length
            await agent.prompt(item.kind === 'invoke' ? `use ${item.key}` : 'quiet')
            if (item.kind === 'invoke') called.add(item.key)
            const texts = inUseTexts(agent.session)
            if (!compactedSinceTurn) expect(texts.length).toBe(countBefore)
            expect(texts.length).toBeLessThanOrEqual(compactions)
            for (const text of texts) for (const key of ['deploy', 'review']) expect(text.split(`Skill: ${key}`).length).toBeLessThanOrEqual(2)
            // A skill tool result, or an in-use message (not the compaction summary, which may quote a result).
            const carriers = (local.requests.at(-1)?.messages ?? []).filter((message) => message.role === 'tool' || (message.role === 'user' && typeof message.content === 'string' && message.content.includes(IN_USE_INTRO)))
            const seen = carriers.map((message) => (typeof message.content === 'string' ? message.content : '')).join('\n')
            for (const key of called) expect(seen).toContain(`Skill: ${key}`)
            compactedSinceTurn = false
          }
        } finally {
          await local.dispose()
        }
      }),
      { numRuns: 25 },
    )
  })
})
