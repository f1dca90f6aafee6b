// Faults of maintainer-document saves (issue 22), through the built binary with real processes:
// two `dsh web` saving one document at once (F2: exactly one wins, the other gets 409), a save
// while `dsh docs edit` has the document open in $EDITOR (refused, the edit kept), a signal to
// `dsh docs edit` while $EDITOR runs (F12: the editor ends with dsh, the edit is kept) and a
// document larger than a read accepts (F13: refused at save time, nothing written).
import { spawn } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { dshBinary, runDsh, testEnv, writeScript } from './run-dsh.ts'
import { isAlive, StartedProcesses } from './test-processes.ts'
import { startWeb, type WebProcess } from './web-harness.ts'

let tree: TempTree
const webs: WebProcess[] = []
const started = new StartedProcesses()
afterEach(async () => {
  await Promise.all(webs.splice(0).map((web) => web.stop()))
  started.endAll()
  await tree?.dispose()
})

const D = '.dsh-maintainer-doc-guard'
const guardConfig = 'maintainerDocGuard:\n  enabled: true\n'

async function repoWithSession(): Promise<void> {
  tree = await tempTree({ 'repo/.git/': null, 'repo/cfg.yaml': guardConfig, 'home/': null, 'scripts/': null })
  const script = writeScript(tree.path('scripts'), 'hi.json', { responses: [{ text: 'hi' }] })
  expect(await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, 'hello'], { cwd: tree.root })).toMatchObject({ code: 0 })
}

const docs = (...args: string[]) => runDsh(['--dsh-home', tree.path('home'), 'docs', '--cwd', tree.path('repo'), ...args], { cwd: tree.root, env: { EDITOR: tree.path('scripts/editor.sh') } })

/**
 * Waits until `file` exists (the editor script creates it once it has made its edit), or until
 * `exited` settles first: a dsh that ended before its editor was ready fails the test at once,
 * with what it said, instead of waiting for the test's timeout.
 */
async function waitForFile(file: string, exited?: Promise<unknown>): Promise<void> {
  let ended: string | undefined
  void exited?.then((code) => (ended = `dsh exited with ${String(code)} before the editor was ready`))
  while (!existsSync(file)) {
    if (ended !== undefined) throw new Error(ended)
    await sleep(20)
  }
}

describe('maintainer-document saves', () => {
  it('F2: two `dsh web` saving one document from the same version: exactly one save lands, the other gets 409', async () => {
    await repoWithSession()
    const script = writeScript(tree.path('scripts'), 'web.json', { responses: [] })
    const start = () => startWeb(['--model', `scripted:${script}`, '--config', 'cfg.yaml'], { cwd: tree.path('repo'), home: tree.path('home') })
    const pair = [await start(), await start()] as const
    webs.push(...pair)
    const ids = await Promise.all(pair.map(async (web) => (await web.api<{ firstSession: string }>('GET', '/api/state')).body.firstSession))
    await pair[0].api('GET', `/api/sessions/${ids[0]}/docs`)
    for (let round = 0; round < 8; round++) {
      const reads = await Promise.all(pair.map((web, index) => web.api<{ content: string; version: string }>('GET', `/api/sessions/${ids[index]}/docs/read?name=plan.md`)))
      expect(reads[0]?.body.version).toBe(reads[1]?.body.version)
      const saves = await Promise.all(pair.map((web, index) => web.api<{ error?: string }>('PUT', `/api/sessions/${ids[index]}/docs/read`, { name: 'plan.md', content: `round ${round} from web ${index}\n`, expected: reads[index]?.body.version })))
      expect(saves.map((save) => save.status).toSorted((a, b) => a - b)).toEqual([200, 409])
      const loser = saves.find((save) => save.status === 409)
      expect(loser?.body.error).toBe('DOCS_CHANGED: plan.md changed since it was loaded (the model, another tab or an editor saved it); nothing was saved: reload it and apply your edit again')
      const winner = saves.findIndex((save) => save.status === 200)
      expect(readFileSync(tree.path(`repo/${D}/plan.md`), 'utf8')).toBe(`round ${round} from web ${winner}\n`)
    }
  })

  it('F2: a save made while `dsh docs edit` has the document in $EDITOR is not overwritten; the edit is kept', async () => {
    await repoWithSession()
    writeFileSync(tree.path('scripts/other.txt'), 'Saved meanwhile.\n')
    writeFileSync(tree.path('scripts/editor.sh'), `#!/bin/sh\n"${dshBinary}" --dsh-home "${tree.path('home')}" docs --cwd "${tree.path('repo')}" edit plan.md --from "${tree.path('scripts/other.txt')}" >/dev/null\nprintf "My edit.\\n" >> "$1"\n`)
    chmodSync(tree.path('scripts/editor.sh'), 0o755)
    const edit = await docs('edit', 'plan.md')
    expect(edit.code).toBe(1)
    const kept = /your edit is kept in (\S+) /u.exec(edit.stderr)?.[1] ?? ''
    expect(edit.stderr).toBe(`dsh: docs: plan.md changed since it was loaded (the model, another tab or an editor saved it); nothing was saved: reload it and apply your edit again; your edit is kept in ${kept} (save it with dsh docs edit plan.md --from ${kept})\n`)
    expect(readFileSync(kept, 'utf8')).toContain('My edit.\n')
    expect(readFileSync(tree.path(`repo/${D}/plan.md`), 'utf8')).toBe('Saved meanwhile.\n')
  })

  it('F12: SIGTERM to `dsh docs edit` while $EDITOR runs ends the editor too and keeps the edit', async () => {
    await repoWithSession()
    const ready = tree.path('scripts/ready')
    // The editor makes its edit, says so, and then waits (as an editor with unsaved state would) as the same process.
    writeFileSync(tree.path('scripts/editor.sh'), `#!/bin/sh\nprintf "Half done.\\n" >> "$1"\necho $$ > "${ready}.tmp" && mv "${ready}.tmp" "${ready}"\nexec sleep 600\n`)
    chmodSync(tree.path('scripts/editor.sh'), 0o755)
    const child = spawn(dshBinary, ['--dsh-home', tree.path('home'), 'docs', '--cwd', tree.path('repo'), 'edit', 'plan.md'], { cwd: tree.root, env: testEnv(tree.root, { NO_COLOR: '1', EDITOR: tree.path('scripts/editor.sh') }), stdio: ['ignore', 'pipe', 'pipe'] })
    started.add(child.pid ?? 0)
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    await waitForFile(ready, closed.then((code) => `${code ?? 'a signal'}: ${stderr.trim()}`))
    const editorPid = Number(readFileSync(ready, 'utf8'))
    started.add(editorPid)
    child.kill('SIGTERM')
    expect(await closed).toBe(143)
    expect(isAlive(editorPid)).toBe(false)
    const kept = /your edit is kept in (\S+) /u.exec(stderr)?.[1] ?? ''
    expect(stderr).toBe(`dsh: docs edit plan.md: stopped by SIGTERM while the editor ran; nothing was saved; your edit is kept in ${kept} (save it with dsh docs edit plan.md --from ${kept})\n`)
    expect(readFileSync(kept, 'utf8')).toContain('Half done.\n')
  })

  it('F13: a document larger than a read accepts is refused when it is saved, from `dsh docs edit --from` and from the web', async () => {
    await repoWithSession()
    expect((await docs()).code).toBe(0)
    writeFileSync(tree.path('scripts/big.txt'), 'x'.repeat(300 * 1024))
    const edit = await docs('edit', 'plan.md', '--from', tree.path('scripts/big.txt'))
    expect(edit).toMatchObject({ code: 1, stdout: '' })
    expect(edit.stderr).toBe('dsh: docs: plan.md: 307200 bytes is more than the 256 KiB a document may hold (larger ones cannot be read back); nothing was saved: shorten it or keep the long part in another file\n')
    expect(existsSync(tree.path(`repo/${D}/plan.md`))).toBe(false)
    expect(await docs('show', 'plan.md')).toMatchObject({ code: 0, stderr: '' })
    const script = writeScript(tree.path('scripts'), 'web.json', { responses: [] })
    const web = await startWeb(['--model', `scripted:${script}`, '--config', 'cfg.yaml'], { cwd: tree.path('repo'), home: tree.path('home') })
    webs.push(web)
    const id = (await web.api<{ firstSession: string }>('GET', '/api/state')).body.firstSession
    const save = await web.api<{ error: string }>('PUT', `/api/sessions/${id}/docs/read`, { name: 'plan.md', content: 'y'.repeat(300 * 1024) })
    expect(save).toEqual({ status: 400, body: { error: 'DOCS_TOO_LARGE: plan.md: 307200 bytes is more than the 256 KiB a document may hold (larger ones cannot be read back); nothing was saved: shorten it or keep the long part in another file' } })
  })
})
