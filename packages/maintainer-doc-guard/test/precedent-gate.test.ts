// The precedent gate through the real kernel: denial text and candidates, success after a read,
// the per-target bound, dry run, monotonic composition with other guards, and failures that
// degrade to "no decision".
import { afterEach, describe, expect, it } from 'vitest'
import { rm } from 'node:fs/promises'
import { z } from 'zod'
import type { FileSystemPort, ToolDefinition } from '@dsh/contracts'
import { call, rig, toolTexts, type Rig } from './support/rig.ts'

let r: Rig | undefined
afterEach(async () => {
  await r?.dispose()
  r = undefined
})

const SKILLS = {
  'repo/.dsh/skills/alpha/SKILL.md': '# alpha\nname: alpha\n',
  'repo/.dsh/skills/gamma/SKILL.md': '# gamma\nname: gamma\n',
  'repo/src/app.ts': 'export {}\n',
}
const explain = 'I am writing the beta SKILL.md so the skill registry can load it.'
const writeBeta = (text = explain) => call('write', { file_path: '.dsh/skills/beta/SKILL.md', content: '# beta\n' }, text)

const brokenFs = (fs: FileSystemPort): FileSystemPort => ({
  ...fs,
  listDir: () => Promise.reject(new Error('disk on fire')),
  resolve: (path, options) => (path.includes('beta') ? Promise.reject(new Error('resolver broke')) : fs.resolve(path, options)),
})

const deleteFile: ToolDefinition<{ path: string }> = {
  name: 'delete_file',
  description: 'Deletes a file.',
  parameters: z.object({ path: z.string() }),
  async execute(args, run) {
    await rm(`${run.cwd}/${args.path}`)
    return { content: `deleted ${args.path}` }
  },
}

describe('precedent gate', () => {
  it('denies a guarded write without a precedent, lists the siblings, and allows it after one was read', async () => {
    r = await rig(SKILLS)
    const agent = await r.start([writeBeta(), call('read', { file_path: '.dsh/skills/alpha/SKILL.md' }), writeBeta(), { text: 'done' }])
    await agent.prompt('add a beta skill')
    expect(toolTexts(r.requests[1])[0]).toBe(
      [
        'The write call was denied: Blocked by maintainer-doc-guard: you are about to write ".dsh/skills/beta/SKILL.md", which lies in a guarded infrastructure area, and this session has not read a working "SKILL.md" that shows the real contract.',
        '',
        'Read one of these first, then retry:',
        '',
        '- .dsh/skills/alpha/SKILL.md',
        '- .dsh/skills/gamma/SKILL.md',
        '',
        'Why: infrastructure written from memory is how invented APIs reach a running harness. If the file already exists, read it; if you are creating it, read a working sibling. The analogue you copy from is what keeps the new file consistent with the real API. Once you have read one of them, retry the same call.',
      ].join('\n'),
    )
    expect(toolTexts(r.requests[3])[2]).toBe('Created .dsh/skills/beta/SKILL.md (7 bytes).')
    expect(r.guard.counters.snapshot().counts).toMatchObject({ denied: 1, reads: 1 })
  })

  it('lists at most maxCandidates precedents, the existing target first, from the walk up the tree', async () => {
    r = await rig({
      'repo/node_modules/@deepseek-ai/pkg-a/lib/index.js': 'a',
      'repo/node_modules/@deepseek-ai/pkg-b/lib/index.js': 'b',
      'repo/node_modules/@deepseek-ai/pkg-c/lib/index.js': 'c',
      'repo/node_modules/@deepseek-ai/pkg-d/lib/index.js': 'd',
      'repo/node_modules/@deepseek-ai/pkg-b/src/index.js': 'src',
    })
    const edit = call('edit', { file_path: 'node_modules/@deepseek-ai/pkg-b/lib/index.js', old_string: 'b', new_string: 'B' }, 'Now I edit index.js of pkg-b to fix the export.')
    const agent = await r.start([edit, { text: 'stop' }])
    await agent.prompt('patch pkg-b')
    const denial = toolTexts(r.requests[1])[0] ?? ''
    expect(denial).toContain('Read one of these first, then retry:\n\n- node_modules/@deepseek-ai/pkg-b/lib/index.js\n- node_modules/@deepseek-ai/pkg-b/src/index.js\n- node_modules/@deepseek-ai/pkg-a/lib/index.js\n\nWhy:')
  })

  it('never offers a file of a neighbouring repository', async () => {
    r = await rig({ 'other/.dsh/skills/beta/SKILL.md': '# other repo\n', 'other/.git/HEAD': 'x\n' })
    const agent = await r.start([writeBeta(), { text: 'stop' }])
    await agent.prompt('go')
    const denial = toolTexts(r.requests[1])[0] ?? ''
    expect(denial).toContain('No working sibling was found nearby.')
    expect(denial).not.toContain('other')
  })

  it('says so when no sibling exists', async () => {
    r = await rig({})
    const agent = await r.start([writeBeta(), { text: 'stop' }])
    await agent.prompt('go')
    const denial = toolTexts(r.requests[1])[0] ?? ''
    expect(denial).toContain('No working sibling was found nearby. Read the closest working analogue of this kind of file (or the source of the API it plugs into), then retry.')
    expect(denial).toMatch(/the real API\. Once you have read a working analogue, retry the same call\.$/u)
  })

  it('ignores paths outside the guarded areas and exempt paths', async () => {
    r = await rig(SKILLS, { config: { gate: { exemptGlobs: ['/exempt/'] } } })
    const agent = await r.start([
      call('write', { file_path: 'src/new.ts', content: 'x' }, 'Writing src/new.ts for the feature.'),
      call('write', { file_path: '.dsh/skills/exempt/SKILL.md', content: 'x' }, 'Writing the exempt SKILL.md now.'),
      { text: 'ok' },
    ])
    await agent.prompt('go')
    expect(toolTexts(r.requests[2])).toEqual(['Created src/new.ts (1 bytes).', 'Created .dsh/skills/exempt/SKILL.md (1 bytes).'])
  })

  it('gives up after maxDeniesPerTarget denials for one target and logs it', async () => {
    r = await rig(SKILLS)
    const agent = await r.start([writeBeta(), writeBeta(), writeBeta(), { text: 'done' }])
    await agent.prompt('go')
    const results = toolTexts(r.requests[3])
    expect(results.map((text) => text.startsWith('The write call was denied: Blocked by maintainer-doc-guard'))).toEqual([true, true, false])
    expect(results[2]).toBe('Created .dsh/skills/beta/SKILL.md (7 bytes).')
    expect(r.warnings).toContain('maintainer-doc-guard: let write on .dsh/skills/beta/SKILL.md through after 2 denials without a precedent read')
    expect(r.guard.counters.snapshot().counts).toMatchObject({ denied: 2, gaveUp: 1 })
  })

  it('pulls tools with destructive names into the gate', async () => {
    r = await rig(SKILLS, { extraTools: [deleteFile] })
    const agent = await r.start([call('delete_file', { path: '.dsh/skills/gamma/SKILL.md' }, 'Deleting the gamma SKILL.md, it is obsolete.'), { text: 'stop' }])
    await agent.prompt('clean up')
    expect(toolTexts(r.requests[1])[0]).toContain('Blocked by maintainer-doc-guard: this delete_file call would change ".dsh/skills/gamma/SKILL.md", which lies')
  })

  it('only counts in dry run', async () => {
    r = await rig(SKILLS, { config: { gate: { dryRun: true } } })
    const agent = await r.start([writeBeta(), { text: 'done' }])
    await agent.prompt('go')
    expect(toolTexts(r.requests[1])).toEqual(['Created .dsh/skills/beta/SKILL.md (7 bytes).'])
    expect(r.guard.counters.snapshot().counts).toMatchObject({ denied: 0, wouldDeny: 1 })
  })

  it('never loosens another guard\'s denial', async () => {
    r = await rig(SKILLS)
    r.host.ctx.on('tools/pre-execute', async (_execution, next) => {
      await next()
      return { kind: 'deny', reason: 'policy says no' }
    })
    const agent = await r.start([call('read', { file_path: '.dsh/skills/alpha/SKILL.md' }), writeBeta(), { text: 'done' }])
    await agent.prompt('go')
    expect(toolTexts(r.requests[2])[1]).toBe('The write call was denied: policy says no. Do not retry it unchanged; choose another approach or ask the user.')
  })

  it('degrades to no decision when its own work fails', async () => {
    r = await rig(SKILLS, { wrapFs: brokenFs })
    const agent = await r.start([call('write', { file_path: 'src/beta.ts', content: 'x' }, 'Writing src/beta.ts for the feature.'), { text: 'done' }])
    await agent.prompt('go')
    expect(toolTexts(r.requests[1])[0]).not.toContain('denied')
    expect(r.guard.counters.snapshot().counts['internalErrors']).toBeGreaterThan(0)
    expect(r.warnings.some((line) => line.startsWith('maintainer-doc-guard: judging write failed: resolver broke'))).toBe(true)
  })
})
