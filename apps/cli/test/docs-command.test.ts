// `dsh docs` and `/docs` through the built binary: documents of the newest session in the cwd
// (first open creates them), show and edit (from a file and through $EDITOR), switches shared
// through settings.yaml, templates, sweep with preview, and one-line errors.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDshPiped } from './chat-harness.ts'
import { runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const D = '.dsh-maintainer-doc-guard'

async function withSession(): Promise<{ sessionId: string; docs: (...args: string[]) => ReturnType<typeof runDsh> }> {
  tree = await tempTree({ 'repo/.git/': null, 'scripts/': null })
  const script = writeScript(tree.path('scripts'), 'hello.json', { responses: [{ text: 'hi' }] })
  const run = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, 'hello'], { cwd: tree.root })
  expect(run.code).toBe(0)
  const docs = (...args: string[]) => runDsh(['--dsh-home', tree.path('home'), 'docs', '--cwd', tree.path('repo'), ...args], { cwd: tree.root, env: { EDITOR: tree.path('scripts/editor.sh') } })
  return { sessionId: sessionIdOf(run.stderr), docs }
}

describe('dsh docs', () => {
  it('lists, shows and edits the documents of the newest session', async () => {
    const { sessionId, docs } = await withSession()
    const list = await docs()
    expect(list.code).toBe(0)
    expect(list.stdout).toContain(`Maintainer documents of session ${sessionId}\n`)
    expect(list.stdout).toContain('created on first open: plan.md, conventions.md, stack.md, state.md, maintainer/README.md\n')
    expect(existsSync(tree.path(`repo/${D}/${sessionId}/conventions.md`))).toBe(true)
    expect((await docs('show', 'conventions.md')).stdout).toMatch(/^# Conventions\n[\s\S]*10\. Delegating to subagents is allowed/u)
    writeFileSync(tree.path('scripts/plan.txt'), 'The plan.\n')
    expect((await docs('edit', 'plan.md', '--from', tree.path('scripts/plan.txt'))).stdout).toBe(`saved ${tree.path(`repo/${D}/plan.md`)} (10 bytes)\n`)
    writeFileSync(tree.path('scripts/editor.sh'), '#!/bin/sh\nprintf "Edited state.\\n" >> "$1"\n')
    chmodSync(tree.path('scripts/editor.sh'), 0o755)
    expect((await docs('edit', 'state.md', '--level', 'session')).stdout).toBe(`saved ${tree.path(`repo/${D}/${sessionId}/state.md`)} (14 bytes)\n`)
    expect((await docs('show', 'state.md')).stdout).toBe('Edited state.\n')
  })

  it('changes switches in settings.yaml, keeps templates, and sweeps only after --yes', async () => {
    const { docs } = await withSession()
    expect((await docs('switches', 'ledger=off')).stdout).toContain('ledger                 off\n')
    expect(readFileSync(tree.path('home/settings.yaml'), 'utf8')).toBe('maintainer-doc-guard-switches:\n  ledger: false\n')
    await docs('list')
    expect((await docs('templates', 'save', 'base')).stdout).toBe(`saved ${tree.path('home/maintainer-doc-guard-templates/base.md')}\n`)
    expect((await docs('templates')).stdout).toBe('base\n')
    mkdirSync(tree.path(`repo/${D}/20250101-000000-abcdef`), { recursive: true })
    expect((await docs('sweep')).stdout).toContain('would remove 1 folder(s)')
    expect(existsSync(tree.path(`repo/${D}/20250101-000000-abcdef`))).toBe(true)
    expect((await docs('sweep', '--yes')).stdout).toBe('removed 1 folder(s):\n  20250101-000000-abcdef\n')
    expect(existsSync(tree.path(`repo/${D}/20250101-000000-abcdef`))).toBe(false)
  })

  it('--help shows examples and the environment it reads', async () => {
    tree = await tempTree({})
    const help = await runDsh(['docs', '--help'], { cwd: tree.root })
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: dsh docs [\s\S]*\nExamples:\n {2}dsh docs [\s\S]*\nEnvironment:\n {2}DSH_HOME [\s\S]*EDITOR, VISUAL/u)
  })

  it('fails in one line for bad usage and where no session has run', async () => {
    const { docs } = await withSession()
    expect(await docs('frobnicate')).toMatchObject({ code: 2, stdout: '', stderr: 'dsh: docs: unknown verb "frobnicate" (verbs: list, show, edit, templates, switches, settings, sweep, counters, help; see help)\n' })
    expect(await docs('edit', 'plan.md', '--from', tree.path('scripts/missing.txt'))).toMatchObject({ code: 2, stderr: `dsh: docs edit: --from ${tree.path('scripts/missing.txt')}: no such file\n` })
    expect(await docs('show', 'nope.md')).toMatchObject({ code: 1, stderr: 'dsh: docs: "nope.md" is not a maintainer document (documents: plan.md, conventions.md, stack.md, state.md, maintainer/README.md, lessons.md)\n' })
    const empty = await runDsh(['--dsh-home', tree.path('home'), 'docs', '--cwd', tree.path('scripts')], { cwd: tree.root })
    expect(empty).toMatchObject({ code: 2, stderr: 'dsh: docs: this needs a session (pass --session ID, or run it where a session has run)\n' })
  })
})

describe('/docs in dsh chat', () => {
  it('runs the verbs for the chat\'s own session, and says how to enable the guard when it is off', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'chat.json', { responses: [{ text: 'hi' }] })
    const config = join(tree.path('scripts'), 'guard.yaml')
    writeFileSync(config, 'maintainerDocGuard:\n  enabled: true\n')
    const base = ['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${script}`]
    const on = await runDshPiped([...base, '--config', config], 'hello\n/docs\n/docs switches strictOnTopic=on\n/docs show nope.md\n', { cwd: tree.root })
    expect(on.code).toBe(0)
    const sessionId = sessionIdOf(on.stderr)
    expect(on.stdout).toContain(`Maintainer documents of session ${sessionId}\n`)
    expect(on.stdout).toContain('strictOnTopic          on\n')
    expect(on.stdout).toContain('docs: "nope.md" is not a maintainer document')
    const off = await runDshPiped(base, '/docs\n', { cwd: tree.root })
    expect(off.stdout).toBe('maintainer-doc-guard is off; turn it on with `maintainerDocGuard: { enabled: true }` in a --config file\n')
  })
})
