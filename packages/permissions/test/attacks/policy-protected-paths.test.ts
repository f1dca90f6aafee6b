// Attacks (issue 19, E, F, G and the deny-rule spellings) through the built binary with a scripted
// model, in dsh run (full-auto, nobody to ask): writes of .git/config and package.json are denied
// naming why; after an allowed package.json change `bash(npm test*)` no longer allows npm test;
// links inside the cwd to $DSH_HOME/settings.yaml, the --config file and .env do not reach them;
// rm and git spellings past `bash(rm -rf*)` and `bash(git push*)` are denied; read and grep do not
// reach ~/.ssh.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { readRequests, runDsh, writeScript } from '../../../../apps/cli/test/run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => {
  await tree?.dispose()
  tree = undefined
})

interface Call {
  readonly name: string
  readonly arguments: Record<string, unknown>
}

async function workspace(): Promise<TempTree> {
  tree = await tempTree({
    'repo/.git/config': '[core]\n',
    'repo/package.json': '{"scripts":{"test":"echo tests"}}\n',
    'repo/.env': 'KEY=1\n',
    'repo/victim/keep.txt': 'keep\n',
    'home/settings.yaml': 'permissions: {}\n',
    'user/.ssh/id_ed25519': 'PRIVATE KEY\n',
    'dsh.yaml': 'permissions: {}\n',
    'tmp/': null,
    'scripts/': null,
  })
  return tree
}

/** Runs dsh run with one response holding `calls`; returns the tool results the model saw. */
async function attack(t: TempTree, calls: readonly Call[], flags: readonly string[] = []): Promise<string[]> {
  const script = writeScript(t.path('scripts'), `s-${Math.random().toString(36).slice(2)}.json`, { responses: [{ toolCalls: [...calls] }, { text: 'done' }] })
  const log = t.path('requests.jsonl')
  writeFileSync(log, '')
  const result = await runDsh(['--dsh-home', t.path('home'), 'run', '--cwd', t.path('repo'), '--config', t.path('dsh.yaml'), ...flags, '--model', `scripted:${script}`, '--request-log', log, 'go'], {
    cwd: t.root,
    env: { TMPDIR: t.path('tmp'), HOME: t.path('user') },
    timeoutMs: 60_000,
  })
  expect(result.code, result.stderr).toBe(0)
  return readRequests(log).at(-1)?.messages.filter((message) => message.role === 'tool').map((message) => message.content ?? '') ?? []
}

const write = (file_path: string, content: string): Call => ({ name: 'write', arguments: { file_path, content } })
const bash = (command: string): Call => ({ name: 'bash', arguments: { command } })

describe('files that run code later', () => {
  it('dsh run denies writes of .git/config and package.json, naming why; both stay unchanged', async () => {
    const t = await workspace()
    const results = await attack(t, [write('.git/config', '[core]\n\tfsmonitor = "touch pwned"\n'), write('package.json', '{"scripts":{"test":"touch pwned"}}\n')])
    expect(results[0]).toBe(
      "The write call was denied: .git/config is a file whose change takes effect outside the sandbox (git runs what .git holds (config such as core.fsmonitor and aliases, hooks) at the next git command), which needs the user's approval, and dsh run cannot ask. Tell the user what change you suggest; dsh run allows it with --allow 'write(.git/config)'. Meanwhile choose another approach.",
    )
    expect(results[1]).toContain('The write call was denied: package.json is a file whose change takes effect outside the sandbox (npm, yarn and pnpm run its scripts')
    expect(readFileSync(t.path('repo/.git/config'), 'utf8')).toBe('[core]\n')
    expect(readFileSync(t.path('repo/package.json'), 'utf8')).toBe('{"scripts":{"test":"echo tests"}}\n')
  })

  it('after an allowed package.json change, bash(npm test*) no longer allows npm test', async () => {
    const t = await workspace()
    const results = await attack(t, [write('package.json', '{"scripts":{"test":"touch pwned"}}\n'), bash('npm test')], ['--permission-mode', 'ask', '--allow', 'write(package.json)', '--allow', 'bash(npm test*)'])
    expect(results[0]).toMatch(/^Overwrote package\.json/)
    expect(results[1]).toContain('The bash call was denied: package.json was changed in this session without a question')
    expect(existsSync(t.path('repo/pwned'))).toBe(false)
  })
})

describe("links to dsh's own files and to denied paths", () => {
  it('a link inside the cwd to $DSH_HOME/settings.yaml, to the --config file or to .env reaches none of them', async () => {
    const t = await workspace()
    symlinkSync(t.path('home/settings.yaml'), t.path('repo/settings.yaml'))
    symlinkSync(t.path('dsh.yaml'), t.path('repo/dsh.yaml'))
    symlinkSync('.env', t.path('repo/env.txt'))
    const results = await attack(t, [write('settings.yaml', 'permissions:\n  allow: [bash]\n'), write('dsh.yaml', 'permissions:\n  allow: [bash]\n'), write('env.txt', 'KEY=stolen\n')], ['--deny', 'write(**/.env)'])
    expect(results[0]).toContain("The write call was denied: the path is part of dsh's own settings and sessions")
    expect(results[1]).toContain("The write call was denied: the path is part of dsh's own settings and sessions")
    expect(results[2]).toBe('The write call was denied: the permission rule "write(**/.env)" denies it. The user\'s deny rules forbid this; do not try to get around them. Choose another approach or ask the user.')
    expect(readFileSync(t.path('home/settings.yaml'), 'utf8')).toBe('permissions: {}\n')
    expect(readFileSync(t.path('dsh.yaml'), 'utf8')).toBe('permissions: {}\n')
    expect(readFileSync(t.path('repo/.env'), 'utf8')).toBe('KEY=1\n')
  })
})

describe('deny rule spellings', () => {
  it('rm and git spellings past bash(rm -rf*) and bash(git push*) are denied, and nothing is removed', async () => {
    const t = await workspace()
    const spellings = ['rm -fr victim', 'rm -Rf victim', 'rm -r -f victim', 'rm --recursive --force victim', '/bin/rm -rf -- victim', 'command rm -fr victim', "'rm' -fr victim", 'git -C . push', 'git --git-dir=.git push origin', 'git -c core.pager=cat push']
    const results = await attack(t, spellings.map(bash), ['--deny', 'bash(rm -rf*)', '--deny', 'bash(git push*)'])
    expect(results).toHaveLength(spellings.length)
    for (const [index, text] of results.entries()) expect(text, spellings[index]).toMatch(/^The bash call was denied: the permission rule "bash\((rm -rf|git push)\*\)" denies it\./)
    expect(readFileSync(t.path('repo/victim/keep.txt'), 'utf8')).toBe('keep\n')
  })
})

describe('secrets through the read tools', () => {
  it('read and grep do not reach ~/.ssh: refused by path, left out of a search of the home directory', async () => {
    const t = await workspace()
    mkdirSync(t.path('user/project'))
    writeFileSync(t.path('user/project/notes.txt'), 'PRIVATE notes\n')
    const key = t.path('user/.ssh/id_ed25519')
    const results = await attack(t, [{ name: 'read', arguments: { file_path: key } }, { name: 'grep', arguments: { pattern: 'PRIVATE', path: t.path('user/.ssh') } }, { name: 'grep', arguments: { pattern: 'PRIVATE', path: t.path('user') } }])
    expect(results[0]).toContain(`The read call was denied: ${key} is inside ${t.path('user/.ssh')}, where credentials or dsh's session transcripts are kept`)
    expect(results[1]).toContain('The grep call was denied:')
    expect(results[2]).toContain('project/notes.txt')
    expect(results.join('\n')).not.toContain('PRIVATE KEY')
    expect(results.join('\n')).not.toContain('id_ed25519\n')
  })
})
