// The operator service over a live host: documents derived from the session (first open,
// levels, saves the next request carries), refusals that write nothing, templates, switches and
// settings, and counters.
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createLocalFileSystem } from '@dsh/fs-local'
import { CONVENTIONS_SEED } from '../src/conventions-seed.ts'
import { operatorServiceFor } from '../src/guard-operator.ts'
import { createOperatorService } from '../src/operator-service.ts'
import { sessionDirectoryOf } from '../src/session-directory.ts'
import type { OperatorService } from '../src/operator-types.ts'
import { promptTexts, rig, type Rig } from './support/rig.ts'

let r: Rig | undefined
afterEach(async () => {
  await r?.dispose()
  r = undefined
})

const D = '.dsh-maintainer-doc-guard'

async function setup(spec: Record<string, string | null> = {}, settings = false): Promise<{ service: OperatorService; sessionId: string; agent: Awaited<ReturnType<Rig['start']>> }> {
  r = await rig(spec, { settings })
  const agent = await r.start([{ text: 'one' }, { text: 'two' }, { text: 'three' }])
  await agent.prompt('hello')
  const service = operatorServiceFor(r.guard, { fs: createLocalFileSystem({ writableRoots: [] }), sessions: r.host.sessions, dshHome: r.tree.path('home') })
  return { service, sessionId: agent.session.id, agent }
}

describe('documents of a session', () => {
  it('creates the session folder with blank documents and the seeded conventions on first open, once', async () => {
    const { service, sessionId } = await setup()
    const view = await service.documents(sessionId)
    expect(view.folder).toBe(join(r!.cwd, D, sessionId))
    expect(view.created).toEqual(['plan.md', 'conventions.md', 'stack.md', 'state.md', 'maintainer/README.md'])
    expect((await readdir(view.folder)).toSorted()).toEqual(['conventions.md', 'maintainer', 'plan.md', 'stack.md', 'state.md'])
    expect(await readFile(join(view.folder, 'conventions.md'), 'utf8')).toBe(CONVENTIONS_SEED)
    expect(await readFile(join(view.folder, 'plan.md'), 'utf8')).toBe('')
    expect(view.documents.map((doc) => [doc.name, doc.role, doc.level ?? '-'])).toEqual([
      ['plan.md', 'operator', '-'],
      ['conventions.md', 'operator', 'session'],
      ['stack.md', 'listed', '-'],
      ['state.md', 'listed', '-'],
      ['maintainer/README.md', 'people', '-'],
      ['lessons.md', 'ledger', '-'],
    ])
    expect((await service.documents(sessionId)).created).toEqual([])
  })

  it('never seeds over conventions the workspace already has', async () => {
    const { service, sessionId } = await setup({ [`repo/${D}/conventions.md`]: 'Our own rules.\n' })
    const view = await service.documents(sessionId)
    expect(view.created).not.toContain('conventions.md')
    expect(await readFile(join(r!.cwd, D, 'conventions.md'), 'utf8')).toBe('Our own rules.\n')
    expect((await service.read(sessionId, 'conventions.md')).content).toBe('Our own rules.\n')
  })

  it('saves to the workspace level unless the session has its own, and the next request carries the text', async () => {
    const { service, sessionId, agent } = await setup()
    await service.documents(sessionId)
    const saved = await service.write(sessionId, 'plan.md', 'Workspace plan.\n')
    expect(saved).toEqual({ path: join(r!.cwd, D, 'plan.md'), bytes: 16 })
    await agent.prompt('next')
    expect(promptTexts(r!.requests[1])).toContain('--- begin .dsh-maintainer-doc-guard/plan.md ---\nWorkspace plan.\n')
    const own = await service.write(sessionId, 'plan.md', 'Session plan.\n', 'session')
    expect(own.path).toBe(join(r!.cwd, D, sessionId, 'plan.md'))
    expect((await service.write(sessionId, 'plan.md', 'Session plan v2.\n')).path).toBe(own.path)
    await agent.prompt('again')
    expect(promptTexts(r!.requests[2])).toContain(`--- begin .dsh-maintainer-doc-guard/${sessionId}/plan.md ---\nSession plan v2.\n`)
    expect((await readdir(join(r!.cwd, D, sessionId))).filter((name) => name.includes('.tmp'))).toEqual([])
  })

  it('reports a document it cannot use instead of calling it blank, and never saves over it', async () => {
    const big = `${'p'.repeat(300 * 1024)}\n`
    const { service, sessionId } = await setup({ [`repo/${D}/plan.md`]: big })
    const view = await service.documents(sessionId)
    expect(view.created).toContain('plan.md')
    expect(view.documents[0]).toMatchObject({ name: 'plan.md', chars: 0, problems: [{ path: join(r!.cwd, D, 'plan.md'), reason: 'larger than 256 KiB' }] })
    await expect(service.read(sessionId, 'plan.md')).rejects.toMatchObject({ code: 'DOCS_UNUSABLE_DOCUMENT', message: `plan.md: ${join(r!.cwd, D, 'plan.md')} is larger than 256 KiB; fix or remove it by hand` })
    await expect(service.write(sessionId, 'plan.md', 'Short plan.\n')).rejects.toMatchObject({ code: 'DOCS_UNUSABLE_DOCUMENT' })
    expect(await readFile(join(r!.cwd, D, 'plan.md'), 'utf8')).toBe(big)
    expect((await service.write(sessionId, 'plan.md', 'Session plan.\n', 'session')).path).toBe(join(r!.cwd, D, sessionId, 'plan.md'))
    expect((await service.read(sessionId, 'plan.md')).content).toBe('Session plan.\n')
  })

  it('refuses unknown sessions, unknown documents and saves through a link, writing nothing', async () => {
    const { service, sessionId } = await setup({ 'elsewhere/': null })
    await expect(service.documents('no-such-session')).rejects.toMatchObject({ code: 'DOCS_UNKNOWN_SESSION' })
    await expect(service.write(sessionId, '../escape.md', 'x')).rejects.toMatchObject({ code: 'DOCS_UNKNOWN_DOCUMENT' })
    await symlink(r!.tree.path('elsewhere'), join(r!.cwd, D))
    await expect(service.write(sessionId, 'plan.md', 'x')).rejects.toMatchObject({ code: 'DOCS_UNSAFE_PATH' })
    expect(await readdir(r!.tree.path('elsewhere'))).toEqual([])
  })

  it('never reads a template through a link', async () => {
    const { service, sessionId } = await setup({ 'secret.md': 'TOP SECRET\n', 'home/maintainer-doc-guard-templates/': null })
    await symlink(r!.tree.path('secret.md'), r!.tree.path('home/maintainer-doc-guard-templates/leak.md'))
    await expect(service.applyTemplate(sessionId, 'leak')).rejects.toMatchObject({ code: 'DOCS_UNSAFE_PATH' })
    expect((await service.read(sessionId, 'conventions.md')).content).not.toContain('TOP SECRET')
  })
})

describe('templates', () => {
  it('saves conventions as a named template in $DSH_HOME and applies it over existing conventions', async () => {
    const { service, sessionId } = await setup({ [`repo/${D}/conventions.md`]: 'Iron rule: cite evidence.\n' })
    expect(await service.templates()).toEqual([])
    const saved = await service.saveTemplate(sessionId, 'iron-rules')
    expect(saved.path).toBe(r!.tree.path('home/maintainer-doc-guard-templates/iron-rules.md'))
    expect(await service.templates()).toEqual(['iron-rules'])
    await writeFile(join(r!.cwd, D, 'conventions.md'), 'Something else.\n')
    await service.applyTemplate(sessionId, 'iron-rules.md')
    expect(await readFile(join(r!.cwd, D, 'conventions.md'), 'utf8')).toBe('Iron rule: cite evidence.\n')
    await expect(service.saveTemplate(sessionId, '../up')).rejects.toMatchObject({ code: 'DOCS_BAD_TEMPLATE_NAME' })
    await expect(service.applyTemplate(sessionId, 'missing')).rejects.toMatchObject({ code: 'DOCS_UNKNOWN_TEMPLATE' })
  })
})

describe('switches, settings and counters', () => {
  it('changes switches and the ten settings, marking overridden fields', async () => {
    const { service } = await setup({}, true)
    expect(service.switches().ledger).toBe(true)
    expect((await service.setSwitches({ ledger: false })).ledger).toBe(false)
    expect(service.settings()?.overridden).toEqual([])
    const view = await service.updateSettings({ nudgeAfterSteps: 5 })
    expect(view.value.nudgeAfterSteps).toBe(5)
    expect(view.overridden).toEqual(['nudgeAfterSteps'])
    expect(r!.guard.current().nudge.afterSteps).toBe(5)
    expect(service.counters()?.counts['sectionRenderSeen']).toBeGreaterThan(0)
  })
})

describe('orphan sweep', () => {
  it('previews, then removes only folders of sessions that no longer exist', async () => {
    const { service, sessionId } = await setup()
    const stored = r!.host.sessions.create({ cwd: r!.cwd })
    const storedId = stored.id
    stored.close()
    for (const name of [sessionId, storedId, '20250101-000000-abcdef/maintainer', 'maintainer', 'notes dir', 'write', '20250101-000000-feedee']) await mkdir(join(r!.cwd, D, name), { recursive: true })
    await writeFile(join(r!.cwd, D, '20250101-000000-abcdef/plan.md'), 'Old plan.\n')
    await writeFile(join(r!.cwd, D, '20250101-000000-abcdef/maintainer/README.md'), '')
    await writeFile(join(r!.cwd, D, 'write/draft.md'), 'My draft.\n')
    await writeFile(join(r!.cwd, D, '20250101-000000-feedee/notes.txt'), 'Kept by hand.\n')
    await mkdir(r!.tree.path('outside'), { recursive: true })
    await symlink(r!.tree.path('outside'), join(r!.cwd, D, '20250101-000000-linked'))
    const preview = await service.previewSweep(sessionId)
    expect(preview.orphans).toEqual(['20250101-000000-abcdef'])
    expect(Object.fromEntries(preview.kept.map((item) => [item.name, item.reason]))).toEqual({
      [sessionId]: 'live session',
      [storedId]: 'session exists',
      maintainer: 'documents folder',
      'notes dir': 'not a session id',
      write: 'not a session id',
      '20250101-000000-feedee': 'holds other files',
      '20250101-000000-linked': 'a link',
    })
    expect(await service.sweep(sessionId, [...preview.orphans, sessionId, storedId, 'write', '20250101-000000-feedee'])).toEqual(['20250101-000000-abcdef'])
    expect((await readdir(join(r!.cwd, D))).toSorted()).toEqual(['20250101-000000-feedee', '20250101-000000-linked', storedId, sessionId, 'maintainer', 'notes dir', 'write'].toSorted())
    expect(await readFile(join(r!.cwd, D, 'write/draft.md'), 'utf8')).toBe('My draft.\n')
    expect(service.counters()?.counts['orphansRemoved']).toBe(1)
  })

  it('removes nothing when the session store cannot tell', async () => {
    const { sessionId } = await setup()
    await mkdir(join(r!.cwd, D, '20250101-000000-abcdef'), { recursive: true })
    const real = sessionDirectoryOf(r!.host.sessions)
    const blind = createOperatorService({
      config: r!.guard.base,
      fs: createLocalFileSystem({ writableRoots: [] }),
      sessions: { header: (id) => real.header(id), presence: () => 'unavailable' },
      dshHome: r!.tree.path('home'),
      switches: r!.guard.switches,
    })
    const preview = await blind.previewSweep(sessionId)
    expect(preview.orphans).toEqual([])
    expect(preview.kept).toContainEqual({ name: '20250101-000000-abcdef', reason: 'store unavailable' })
    expect(await blind.sweep(sessionId, ['20250101-000000-abcdef'])).toEqual([])
    expect(await readdir(join(r!.cwd, D))).toContain('20250101-000000-abcdef')
  })
})
