// End to end through the built binary: `dsh sessions list` (table, --json, terminal safety),
// `sessions show`, and session ids by unique prefix in run --resume, sessions show and compact.
import { utimesSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function workspace() {
  tree = await tempTree({ 'repo/notes.txt': 'alpha\n', 'scripts/': null })
  return { repo: tree.path('repo'), home: tree.path('home') }
}

async function newSession(w: { repo: string; home: string }, prompt: string, answer: string): Promise<string> {
  const script = writeScript(tree.path('scripts'), `${Math.random().toString(36).slice(2)}.json`, { responses: [{ text: answer }] })
  const result = await runDsh(['--dsh-home', w.home, 'run', '--cwd', w.repo, '--model', `scripted:${script}`, prompt], { cwd: tree.root })
  expect(result.code).toBe(0)
  return sessionIdOf(result.stderr)
}

const commonPrefix = (a: string, b: string): string => {
  let length = 0
  while (length < a.length && a[length] === b[length]) length++
  return a.slice(0, length)
}

const ESC = '\u001b'

describe('dsh sessions', () => {
  it('list prints a header row and one row per session with relative time, turns, size, cwd and title; --json has ISO times', async () => {
    const w = await workspace()
    const first = await newSession(w, 'explain\nthe   notes file', 'ok')
    const second = await newSession(w, 'second prompt', 'fine')
    const minutesAgo = new Date(Math.floor((Date.now() - 3 * 60_000 - 5_000) / 1000) * 1000)
    utimesSync(join(w.home, 'sessions', `${first}.jsonl`), minutesAgo, minutesAgo)
    const listed = await runDsh(['--dsh-home', w.home, 'sessions', 'list'], { cwd: tree.root })
    expect(listed.code).toBe(0)
    const lines = listed.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID {2,}UPDATED {2,}TURNS {2,}SIZE {2,}CWD {2,}TITLE$/)
    expect(lines).toHaveLength(3)
    expect(lines[1]).toMatch(new RegExp(`^${second} +(just now|\\d+ s ago) +1 +\\d+(\\.\\d)? KB +${w.repo} +second prompt$`))
    expect(lines[2]).toMatch(new RegExp(`^${first} +3 min ago +1 +\\d+(\\.\\d)? KB +${w.repo} +explain the notes file$`))
    const json = await runDsh(['--dsh-home', w.home, 'sessions', 'list', '--json'], { cwd: tree.root })
    const rows: unknown = JSON.parse(json.stdout)
    expect(rows).toEqual([
      { id: second, title: 'second prompt', cwd: w.repo, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), updatedAt: expect.stringMatching(/Z$/), turns: 1, events: expect.any(Number), size: expect.any(Number) },
      { id: first, title: 'explain the notes file', cwd: w.repo, createdAt: expect.any(String), updatedAt: minutesAgo.toISOString(), turns: 1, events: expect.any(Number), size: expect.any(Number) },
    ])
  })

  it('escape sequences from prompts and model text are shown visibly by list and show --messages, and JSON-escaped by --json', async () => {
    const w = await workspace()
    const hostile = `title ${ESC}]0;pwned\u0007 and ${ESC}[2J clear`
    const id = await newSession(w, hostile, `answer ${ESC}[31mred${ESC}[0m`)
    const listed = await runDsh(['--dsh-home', w.home, 'sessions', 'list'], { cwd: tree.root })
    expect(listed.stdout).not.toContain(ESC)
    expect(listed.stdout).toContain('title ^[]0;pwned^G and ^[[2J clear')
    const shown = await runDsh(['--dsh-home', w.home, 'sessions', 'show', id, '--messages'], { cwd: tree.root })
    expect(shown.code).toBe(0)
    expect(shown.stdout).not.toContain(ESC)
    expect(shown.stdout).toContain('--- user (user)\ntitle ^[]0;pwned^G and ^[[2J clear\n--- assistant\nanswer ^[[31mred^[[0m')
    const json = await runDsh(['--dsh-home', w.home, 'sessions', 'list', '--json'], { cwd: tree.root })
    expect(json.stdout).not.toContain(ESC)
    expect(JSON.parse(json.stdout)).toMatchObject([{ title: hostile }])
  })

  it('run --resume, sessions show and compact take a unique prefix; an ambiguous one is named with its matches', async () => {
    const w = await workspace()
    const first = await newSession(w, 'one', 'first answer')
    const second = await newSession(w, 'two', 'second answer')
    const shared = commonPrefix(first, second)
    expect(shared.length).toBeGreaterThan(0)
    const ambiguous = await runDsh(['--dsh-home', w.home, 'sessions', 'show', shared], { cwd: tree.root })
    const [newer, older] = [first, second].toSorted((a, b) => b.localeCompare(a))
    expect(ambiguous).toMatchObject({ code: 1, stdout: '', stderr: `dsh: ambiguous prefix: 2 sessions start with "${shared}": ${newer}, ${older}; type more of the id\n` })
    const prefix = first.slice(0, shared.length + 1)
    const shown = await runDsh(['--dsh-home', w.home, 'sessions', 'show', prefix], { cwd: tree.root })
    expect(shown.stdout).toContain(`session ${first}\n`)
    const script = writeScript(tree.path('scripts'), 'resume.json', { responses: [{ text: 'resumed answer' }] })
    const resumed = await runDsh(['--dsh-home', w.home, 'run', '--model', `scripted:${script}`, '--resume', prefix, 'again'], { cwd: tree.root })
    expect(resumed).toMatchObject({ code: 0, stdout: 'resumed answer\n' })
    expect(sessionIdOf(resumed.stderr)).toBe(first)
    const compacted = await runDsh(['--dsh-home', w.home, 'compact', prefix], { cwd: tree.root })
    expect(compacted).toMatchObject({ code: 0, stdout: `compacted ${first}: 4 visible messages -> 1\n` })
    const missing = await runDsh(['--dsh-home', w.home, 'compact', 'zz'], { cwd: tree.root })
    expect(missing).toMatchObject({ code: 1, stderr: `dsh: no session "zz" in ${w.home}/sessions\n` })
  })
})
