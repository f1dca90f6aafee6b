// The /docs verbs as plain text over the operator service: list, show, switches, settings,
// templates, sweep with preview, counters, and one-line usage errors.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createLocalFileSystem } from '@dsh/fs-local'
import { runDocsVerb } from '../src/docs-verbs.ts'
import { operatorServiceFor } from '../src/guard-operator.ts'
import type { OperatorService } from '../src/operator-types.ts'
import { rig, type Rig } from './support/rig.ts'

let r: Rig | undefined
afterEach(async () => {
  await r?.dispose()
  r = undefined
})

async function setup(): Promise<{ service: OperatorService; sessionId: string }> {
  r = await rig({ 'repo/.dsh-maintainer-doc-guard/plan.md': 'Ship it.\n' }, { settings: true })
  const agent = await r.start([{ text: 'ok' }])
  await agent.prompt('hello')
  return { service: operatorServiceFor(r.guard, { fs: createLocalFileSystem({ writableRoots: [] }), sessions: r.host.sessions, dshHome: r.tree.path('home') }), sessionId: agent.session.id }
}

describe('/docs verbs', () => {
  it('lists and shows documents', async () => {
    const { service, sessionId } = await setup()
    const list = await runDocsVerb(service, [], { sessionId })
    expect(list.split('\n')).toEqual([
      `Maintainer documents of session ${sessionId}`,
      `folder: ${join(r!.cwd, '.dsh-maintainer-doc-guard', sessionId)}`,
      'created on first open: conventions.md, stack.md, state.md, maintainer/README.md',
      '  plan.md                workspace 9 chars      .dsh-maintainer-doc-guard/plan.md',
      `  conventions.md         session   ${`${(await service.read(sessionId, 'conventions.md')).content.length} chars`.padEnd(12)} .dsh-maintainer-doc-guard/${sessionId}/conventions.md`,
      '  stack.md               (blank)',
      '  state.md               (blank)',
      '  maintainer/README.md   (blank; for people, never shown to the model)',
      '  lessons.md             (none yet; the model writes it)',
    ])
    expect(await runDocsVerb(service, ['show', 'plan.md'], { sessionId })).toBe('Ship it.')
    expect(await runDocsVerb(service, ['show', 'stack.md'], { sessionId })).toBe('(stack.md is blank)')
  })

  it('lists a document it cannot use as such, with where and why', async () => {
    const { service, sessionId } = await setup()
    const folder = join(r!.cwd, '.dsh-maintainer-doc-guard')
    await writeFile(join(folder, 'stack.md'), Buffer.from([0xff, 0xfe, 0x41]))
    const list = (await runDocsVerb(service, ['list'], { sessionId })).split('\n')
    expect(list.slice(list.indexOf('  stack.md               (not usable)'), -3)).toEqual(['  stack.md               (not usable)', '    left out: .dsh-maintainer-doc-guard/stack.md is not UTF-8 text'])
    await expect(runDocsVerb(service, ['show', 'stack.md'], { sessionId })).rejects.toThrow(`stack.md: ${join(folder, 'stack.md')} is not UTF-8 text; fix or remove it by hand`)
  })

  it('shows and changes switches and settings', async () => {
    const { service } = await setup()
    expect(await runDocsVerb(service, ['switches', 'ledger=off', 'strictOnTopic=on'])).toBe(
      ['strictOnTopic          on', 'ledger                 off', 'content                on', 'verify                 on', 'induce                 on', 'child                  on', 'operatorDocsReadOnly   on'].join('\n'),
    )
    const settings = await runDocsVerb(service, ['settings', 'nudgeAfterSteps=8'])
    expect(settings).toContain('nudgeAfterSteps          8  (overridden; config: 12)')
    expect(settings).toContain('gateEnabled              true\n')
    await expect(runDocsVerb(service, ['switches', 'ledgr=off'])).rejects.toThrow('unknown key "ledgr" (keys: strictOnTopic, ledger, content, verify, induce, child, operatorDocsReadOnly)')
    await expect(runDocsVerb(service, ['settings', 'nudgeGrace=99'])).rejects.toMatchObject({ code: 'DOCS_BAD_VALUE' })
  })

  it('saves and applies templates, and sweeps only after --yes', async () => {
    const { service, sessionId } = await setup()
    await runDocsVerb(service, ['list'], { sessionId })
    expect(await runDocsVerb(service, ['templates', 'save', 'base'], { sessionId })).toMatch(/^saved .*maintainer-doc-guard-templates\/base\.md$/u)
    expect(await runDocsVerb(service, ['templates'])).toBe('base')
    expect(await runDocsVerb(service, ['templates', 'apply', 'base'], { sessionId })).toMatch(/^applied template base to .*conventions\.md \(\d+ bytes\)$/u)
    await mkdir(join(r!.cwd, '.dsh-maintainer-doc-guard', '20250101-000000-abcdef'))
    expect(await runDocsVerb(service, ['sweep'], { sessionId })).toBe(
      `would remove 1 folder(s) of sessions that no longer exist in ${join(r!.cwd, '.dsh-maintainer-doc-guard')}:\n  20250101-000000-abcdef\nrun again with --yes to remove them`,
    )
    expect(await runDocsVerb(service, ['sweep', '--yes'], { sessionId })).toBe('removed 1 folder(s):\n  20250101-000000-abcdef')
    expect(await runDocsVerb(service, ['counters'])).toContain('orphansRemoved')
  })

  it('explains usage errors in one line', async () => {
    const { service } = await setup()
    await expect(runDocsVerb(service, ['list'])).rejects.toThrow('this needs a session (pass --session ID, or run it where a session has run)')
    await expect(runDocsVerb(service, ['frobnicate'])).rejects.toMatchObject({ code: 'DOCS_USAGE', message: 'unknown verb "frobnicate" (verbs: list, show, edit, templates, switches, settings, sweep, counters, help; see help)' })
    await expect(runDocsVerb(service, ['edit', 'plan.md'], { sessionId: 'x' })).rejects.toThrow('edit opens an editor: run `dsh docs edit NAME` in a terminal (or pass --from FILE there)')
    await expect(runDocsVerb(service, ['switches', 'verify=maybe'])).rejects.toThrow('verify=maybe: expected on or off')
    await expect(runDocsVerb(service, ['show'], { sessionId: 'x' })).rejects.toThrow('usage: show NAME')
  })
})
