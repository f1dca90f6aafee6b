// End to end through the built binary: what stands in the sessions directory is not trusted. A
// FIFO or a directory named like a session, an unreadable file or directory, a sessions path that
// is a file, and a session line full of escape sequences each give one terminal-safe `dsh:` line
// naming the path and what is wrong — at once, never a hang — and the other sessions stay usable.
import { appendFileSync, chmodSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDsh, sessionIdOf, writeScript, type DshResult } from './run-dsh.ts'
import { unprivilegedDsh } from './unprivileged-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const ESC = '\u001b'
/** A hang guard for commands that used to block forever in `open()`; generous for a loaded machine. */
const HANG_GUARD_MS = 60_000

async function workspace() {
  tree = await tempTree({ 'repo/': null, 'scripts/': null })
  return { repo: tree.path('repo'), home: tree.path('home'), sessions: tree.path('home/sessions') }
}

async function newSession(w: { repo: string; home: string }, run: typeof runDsh = runDsh): Promise<string> {
  const script = writeScript(tree.path('scripts'), 'answer.json', { responses: [{ text: 'ok' }] })
  const result = await run(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, 'hello'], { cwd: tree.root })
  expect(result).toMatchObject({ code: 0, stdout: 'ok\n' })
  return sessionIdOf(result.stderr)
}

describe('hostile session files', () => {
  it('a FIFO or a directory named like a session is refused at once by show, run --resume and compact, and skipped by list', { timeout: 240_000 }, async () => {
    const w = await workspace()
    const good = await newSession(w)
    const fifo = `${w.sessions}/20990101-000000-fifo.jsonl`
    execFileSync('mkfifo', [fifo])
    const directory = `${w.sessions}/20990101-000000-dir.jsonl`
    mkdirSync(directory)
    const script = writeScript(tree.path('scripts'), 'never.json', { responses: [{ text: 'never' }] })
    const dsh = (...args: string[]) => runDsh(['--dsh-home', w.home, ...args], { cwd: tree.root, timeoutMs: HANG_GUARD_MS })
    for (const [id, file, kind] of [['20990101-000000-fifo', fifo, 'a FIFO'], ['20990101-000000-dir', directory, 'a directory']] as const) {
      const refusal = `dsh: ${file}: not a regular file (${kind}); a session is a regular file\n`
      expect(await dsh('sessions', 'show', id)).toEqual({ code: 1, stdout: '', stderr: refusal })
      expect(await dsh('run', '--resume', id, '--model', `scripted:${script}`, 'go on')).toEqual({ code: 1, stdout: '', stderr: refusal })
      expect(await dsh('compact', id)).toEqual({ code: 1, stdout: '', stderr: refusal })
    }
    const list = await dsh('sessions', 'list', '--json')
    expect(list.code).toBe(0)
    expect(JSON.parse(list.stdout)).toMatchObject([{ id: good }])
    expect(list.stderr.split('\n').toSorted()).toEqual([
      '',
      `warning: skipping ${directory}: ${directory}: not a regular file (a directory); a session is a regular file`,
      `warning: skipping ${fifo}: ${fifo}: not a regular file (a FIFO); a session is a regular file`,
    ])
    const again = writeScript(tree.path('scripts'), 'again.json', { responses: [{ text: 'still here' }] })
    expect(await dsh('run', '--resume', good, '--model', `scripted:${again}`, 'go on')).toMatchObject({ code: 0, stdout: 'still here\n' })
  })

  it('a FIFO at the listing index or among the lock generations blocks neither list nor resume', { timeout: 240_000 }, async () => {
    const w = await workspace()
    const id = await newSession(w)
    const index = `${w.sessions}/.list-index.json`
    rmSync(index, { force: true })
    execFileSync('mkfifo', [index, `${w.sessions}/.locks/${id}/9`])
    const dsh = (...args: string[]) => runDsh(['--dsh-home', w.home, ...args], { cwd: tree.root, timeoutMs: HANG_GUARD_MS })
    const list = await dsh('sessions', 'list', '--json')
    expect(list).toMatchObject({ code: 0, stderr: '' })
    expect(JSON.parse(list.stdout)).toMatchObject([{ id, title: 'hello' }])
    expect(statSync(index).isFile()).toBe(true)
    const script = writeScript(tree.path('scripts'), 'again.json', { responses: [{ text: 'resumed' }] })
    expect(await dsh('run', '--resume', id, '--model', `scripted:${script}`, 'go on')).toEqual({ code: 0, stdout: 'resumed\n', stderr: `session: ${id}\n` })
  })

  it('an unreadable session file or sessions directory, and a sessions path that is a file, are one line naming the path and why', async (context) => {
    const w = await workspace()
    // Permissions bind only a user other than root: as root, dsh runs as `nobody` (see unprivileged-dsh.ts).
    const unprivileged = unprivilegedDsh(tree.root, w.home)
    if (unprivileged.skip !== undefined) {
      context.skip(unprivileged.skip)
      return
    }
    const id = await newSession(w, unprivileged.run)
    const file = `${w.sessions}/${id}.jsonl`
    const script = writeScript(tree.path('scripts'), 'never.json', { responses: [{ text: 'never' }] })
    const dsh = (...args: string[]): Promise<DshResult> => unprivileged.run(['--dsh-home', w.home, ...args], { cwd: tree.root })
    chmodSync(file, 0o000)
    expect(await dsh('sessions', 'show', id)).toEqual({ code: 1, stdout: '', stderr: `dsh: cannot read ${file}: permission denied\n` })
    expect(await dsh('run', '--resume', id, '--model', `scripted:${script}`, 'go on')).toEqual({ code: 1, stdout: '', stderr: `dsh: cannot read ${file}: permission denied\n` })
    expect(await dsh('sessions', 'list')).toEqual({ code: 0, stdout: 'no sessions\n', stderr: `warning: skipping ${file}: cannot read ${file}: permission denied\n` })
    chmodSync(file, 0o400)
    expect(await dsh('run', '--resume', id, '--model', `scripted:${script}`, 'go on')).toEqual({ code: 1, stdout: '', stderr: `dsh: cannot open ${file} for appending: permission denied; the session is unchanged\n` })
    chmodSync(w.sessions, 0o000)
    expect(await dsh('sessions', 'list')).toEqual({ code: 1, stdout: '', stderr: `dsh: cannot list the sessions in ${w.sessions}: permission denied\n` })
    chmodSync(w.sessions, 0o700)
    const other = tree.path('other-home')
    mkdirSync(other)
    writeFileSync(`${other}/sessions`, '')
    expect(await runDsh(['--dsh-home', other, 'sessions', 'list'], { cwd: tree.root })).toEqual({ code: 1, stdout: '', stderr: `dsh: cannot list the sessions in ${other}/sessions: not a directory\n` })
  })

  it('escape sequences in a malformed session line are shown visibly in the error, never sent to the terminal', async () => {
    const w = await workspace()
    const id = await newSession(w)
    appendFileSync(`${w.sessions}/${id}.jsonl`, `${ESC}]0;owned${ESC}\\${ESC}[2J\n`)
    const result = await runDsh(['--dsh-home', w.home, 'sessions', 'show', id], { cwd: tree.root })
    expect(result).toEqual({ code: 1, stdout: '', stderr: `dsh: ${w.sessions}/${id}.jsonl:11: invalid JSON (Unexpected token '^[', "^[]0;owned^[\\^[[2J" is not valid JSON)\n` })
  })
})
