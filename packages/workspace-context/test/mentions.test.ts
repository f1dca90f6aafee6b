// `@path` mentions in the person's prompt: the mentioned file's (or directory's) directories join
// at the first step of the turn as a touch would join them, so their instruction files arrive
// with the prompt; a later read of the file adds nothing; mentions of missing paths, of paths
// outside the cwd, in addresses or in messages nobody typed join nothing.
import { describe, expect, it } from 'vitest'
import { mentionTokens } from '@dsh/runtime'
import { instructionMessages, REPO, textOf } from './support/fixtures.ts'
import { message, Rig } from './support/rig.ts'

const FILES = { ...REPO, '/repo/web/CLAUDE.md': 'Web rules.\n', '/repo/web/app.ts': 'app' }

async function prompted(prompt: string) {
  const rig = await new Rig({ files: FILES }).start()
  const agent = rig.agent('/repo')
  const entered = await rig.step(agent, { prompt })
  return { rig, agent, texts: entered.map(textOf) }
}

describe('the words that are mentions', () => {
  it('are @ words after the start or whitespace, without closing punctuation, quoted when they hold spaces', () => {
    expect(mentionTokens('fix @pkg/a.ts, then @web. Mail me@example.com or see @"docs/a b.md" and (@x/y)')).toEqual(['pkg/a.ts', 'web', 'docs/a b.md'])
    expect(mentionTokens('@a @a\n@b')).toEqual(['a', 'b'])
    expect(mentionTokens('an @ alone, @@, and `@code`')).toEqual(['@'])
  })
})

describe('@ mentions in the prompt', () => {
  it('deliver the instruction files of a mentioned file and a mentioned directory with the prompt', async () => {
    const { agent, texts } = await prompted('fix @pkg/deep/b.ts and look at @web')
    expect(texts[0]).toBe('fix @pkg/deep/b.ts and look at @web')
    expect(texts[1]).toContain('Instructions from: AGENTS.md')
    expect(texts[2]).toContain('Additional instructions from: pkg/AGENTS.md')
    expect(texts[2]).toContain('Additional instructions from: web/CLAUDE.md')
    expect(instructionMessages(agent.session)).toHaveLength(2)
  })

  it('a later read of the mentioned file adds nothing', async () => {
    const { rig, agent } = await prompted('fix @pkg/a.ts')
    const before = instructionMessages(agent.session).length
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(instructionMessages(agent.session)).toHaveLength(before)
  })

  it('join nothing for a missing path, a path outside the cwd, or an address', async () => {
    const { agent, texts } = await prompted('see @missing/x.ts, @/home/user/.dsh/AGENTS.md and me@pkg')
    expect(texts).toHaveLength(2)
    expect(instructionMessages(agent.session)).toHaveLength(1)
  })

  it('count in the first step of a later turn too, and only in what the person typed', async () => {
    const { rig, agent } = await prompted('start')
    await agent.inbox.append('next-step', message('a hook says @web', { kind: 'plugin', plugin: 'hooks', form: 'notice' }))
    await rig.step(agent)
    expect(instructionMessages(agent.session)).toHaveLength(1)
    const entered = await rig.step(agent, { prompt: 'now @web please' })
    expect(entered.map(textOf).at(-1)).toContain('Additional instructions from: web/CLAUDE.md')
  })
})
