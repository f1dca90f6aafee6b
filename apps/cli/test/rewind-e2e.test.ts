// Checkpoints and rewind end to end through the built binary with a scripted model, in temporary
// git repositories: turns that write, edit and run bash (append, remove, rename, chmod) in the
// working directory and in an --add-dir root; --to, --undo, --code-only, --conversation-only, a
// hand-edited file (refused with a diff, then --force); byte-for-byte tree comparison, and the
// user's repository (refs, objects, index, stash) unchanged by all of it; a turn whose changes were
// made by a subagent and by an MCP server (the real server-filesystem) is rewound too.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ModelScript } from '@dsh/llm-scripted'
import { serverScript } from './mcp-servers.ts'
import { readRequests, runDsh, sessionIdOf, writeScript } from './run-dsh.ts'
import { snapshot } from './tree-snapshot.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const git = (repo: string, ...args: string[]): string => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' })

/** What dsh must never change in a repository. */
function repoState(repo: string): Record<string, string> {
  return {
    refs: git(repo, 'for-each-ref'),
    objects: git(repo, 'count-objects', '-v'),
    index: createHash('sha256').update(readFileSync(join(repo, '.git/index'))).digest('hex'),
    stash: git(repo, 'stash', 'list'),
    hooks: readdirSync(join(repo, '.git/hooks')).toSorted().join(','),
  }
}

async function setup(): Promise<{ repo: string; extra: string }> {
  tree = await tempTree({
    'repo/f.txt': 'f line\n',
    'repo/g.txt': 'g to remove\n',
    'repo/h.txt': 'h to rename\n',
    'repo/k.sh': 'echo keep\n',
    'repo/src/deep.ts': 'export const deep = 1\n',
    'repo/.gitignore': 'ignored/\n',
    'repo/ignored/big.log': 'ignored content\n',
    'repo/untracked.txt': 'not committed\n',
    'extra/e.txt': 'extra line\n',
    'scripts/': null,
    'tmp/': null,
  })
  for (const name of ['repo', 'extra']) {
    const repo = tree.path(name)
    execFileSync('git', ['init', '-q', repo])
    git(repo, 'add', '-A')
    git(repo, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init')
  }
  // A stash and a dirty index entry, so "unchanged" means something.
  writeFileSync(tree.path('repo/f.txt'), 'f line\nstaged\n')
  git(tree.path('repo'), 'add', 'f.txt')
  return { repo: tree.path('repo'), extra: tree.path('extra') }
}

let count = 0
async function dsh(args: readonly string[], script?: ModelScript, extraEnv: Record<string, string> = {}) {
  const log = tree.path(`requests-${++count}.jsonl`)
  const [command = '', ...rest] = args
  const model = script === undefined ? [] : ['--model', `scripted:${writeScript(tree.path('scripts'), `s${count}.json`, script)}`, '--request-log', log, '--add-dir', tree.path('extra')]
  const result = await runDsh(['--dsh-home', tree.path('home'), command, ...model, ...rest], { cwd: tree.path('repo'), env: { TMPDIR: tree.path('tmp'), ...extraEnv } })
  return { ...result, log }
}

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] })

const turnOne: ModelScript = {
  responses: [
    call('write', { file_path: 'new.txt', content: 'brand new\n' }),
    call('edit', { file_path: 'src/deep.ts', old_string: 'deep = 1', new_string: 'deep = 2' }),
    call('bash', { command: `echo appended >> f.txt; rm g.txt; mv h.txt i.txt; chmod 755 k.sh; echo more >> ignored/big.log; echo extra >> ${JSON.stringify(join('..', 'extra', 'e.txt'))}; echo made > ../extra/made.txt` }),
    { text: 'turn one done' },
  ],
}
const turnTwo: ModelScript = {
  responses: [call('bash', { command: 'echo second >> f.txt; rm untracked.txt; echo two > two.txt' }), call('write', { file_path: 'new.txt', content: 'rewritten\n' }), { text: 'turn two done' }],
}

describe('dsh rewind', () => {
  it('puts files and conversation back, undoes, and never touches the repositories', async () => {
    const { repo, extra } = await setup()
    const git0 = { repo: repoState(repo), extra: repoState(extra) }
    const s0 = { repo: snapshot(repo), extra: snapshot(extra) }
    const first = await dsh(['run', 'first prompt'], turnOne)
    expect(first.code, first.stderr).toBe(0)
    const id = sessionIdOf(first.stderr)
    const s1 = { repo: snapshot(repo), extra: snapshot(extra) }
    expect(s1.repo['i.txt']).toBeDefined()
    const second = await dsh(['run', '--resume', id, 'second prompt'], turnTwo)
    expect(second.code, second.stderr).toBe(0)
    const s2 = { repo: snapshot(repo), extra: snapshot(extra) }

    const list = await dsh(['rewind', id, '--list'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain('first prompt')
    expect(list.stdout).toContain('second prompt')
    expect(list.stdout).toMatch(/^1 .*new\.txt.*src\/deep\.ts/m)
    expect(list.stdout).not.toContain('big.log')

    const toTwo = await dsh(['rewind', id, '--to', '2'])
    expect(toTwo.code, toTwo.stderr).toBe(0)
    expect({ repo: snapshot(repo), extra: snapshot(extra) }).toEqual(s1)
    const undo = await dsh(['rewind', id, '--undo'])
    expect(undo.code, undo.stderr).toBe(0)
    expect({ repo: snapshot(repo), extra: snapshot(extra) }).toEqual(s2)

    const codeOnly = await dsh(['rewind', id, '--to', '1', '--code-only'])
    expect(codeOnly.code, codeOnly.stderr).toBe(0)
    // The ignored file keeps what the shell appended (ignored paths are not captured); all else is back.
    const ignoredNow = snapshot(repo)['ignored/big.log']
    expect({ repo: { ...snapshot(repo), 'ignored/big.log': s0.repo['ignored/big.log'] }, extra: snapshot(extra) }).toEqual(s0)
    expect(ignoredNow).not.toBe(s0.repo['ignored/big.log'])
    expect((await dsh(['rewind', id, '--undo'])).code).toBe(0)
    expect({ repo: snapshot(repo), extra: snapshot(extra) }).toEqual(s2)

    // A file changed by hand since the session wrote it: nothing changes, the diff is shown, exit 1.
    writeFileSync(join(repo, 'two.txt'), 'two\nby hand\n')
    const handEdited = { repo: snapshot(repo), extra: snapshot(extra) }
    const refused = await dsh(['rewind', id, '--to', '2'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('changed outside dsh')
    expect(refused.stderr).toContain('two.txt')
    expect(refused.stderr).toContain('+ by hand')
    expect({ repo: snapshot(repo), extra: snapshot(extra) }).toEqual(handEdited)
    const forced = await dsh(['rewind', id, '--to', '2', '--force'])
    expect(forced.code, forced.stderr).toBe(0)
    expect({ repo: snapshot(repo), extra: snapshot(extra) }).toEqual(s1)

    // The conversation went back too: a resumed turn does not see turn 2, and sessions show marks it.
    const resumed = await dsh(['run', '--resume', id, 'third prompt'], { responses: [{ text: 'ok' }] })
    expect(resumed.code, resumed.stderr).toBe(0)
    const users = (readRequests(resumed.log)[0]?.messages ?? []).filter((message) => message.role === 'user').map((message) => message.content ?? '')
    expect(users.some((text) => text.includes('first prompt'))).toBe(true)
    expect(users.some((text) => text.includes('second prompt'))).toBe(false)
    const show = await dsh(['sessions', 'show', id])
    expect(show.stdout).toContain('rewound turns: 2')
    const messages = await dsh(['sessions', 'show', id, '--messages'])
    expect(messages.stdout).toContain('second prompt')

    // Conversation only: files stay, the conversation loses turn 3.
    const before = { repo: snapshot(repo), extra: snapshot(extra) }
    const conversationOnly = await dsh(['rewind', id, '--to', '3', '--conversation-only'])
    expect(conversationOnly.code, conversationOnly.stderr).toBe(0)
    expect({ repo: snapshot(repo), extra: snapshot(extra) }).toEqual(before)

    const untouchedIndex = { ...git0.repo }
    expect(repoState(repo)).toEqual(untouchedIndex)
    expect(repoState(extra)).toEqual(git0.extra)
  })

  it("takes back what a subagent and an MCP server changed in the turn", { timeout: 120_000 }, async () => {
    const { repo } = await setup()
    const servers = tree.path('servers.json')
    writeFileSync(servers, JSON.stringify({ mcpServers: { fs: { command: process.execPath, args: [serverScript('server-filesystem'), repo] } } }))
    const s0 = snapshot(repo)
    const script: ModelScript = {
      responses: [
        call('subagent', { prompt: 'Change the files.' }),
        call('write', { file_path: 'by-child.txt', content: 'the child wrote this\n' }),
        call('bash', { command: 'echo child >> f.txt; rm g.txt' }),
        { text: 'child done' },
        call('mcp__fs__write_file', { path: join(repo, 'h.txt'), content: 'the MCP server rewrote this\n' }),
        { text: 'parent done' },
      ],
    }
    const run = await dsh(['run', '--mcp-config', servers, 'delegate and write'], script)
    expect(run.code, run.stderr).toBe(0)
    const id = sessionIdOf(run.stderr)
    expect(readFileSync(join(repo, 'h.txt'), 'utf8')).toBe('the MCP server rewrote this\n')
    expect(snapshot(repo)['by-child.txt']).toBeDefined()
    const list = await dsh(['rewind', id, '--list'])
    expect(list.stdout).toMatch(/^1 .*by-child\.txt/m)
    const rewound = await dsh(['rewind', id, '--to', '1', '--code-only'])
    expect(rewound.code, rewound.stderr).toBe(0)
    expect(snapshot(repo)).toEqual(s0)
  })

  it('refuses bad input: unknown session, turn out of range, a missing checkpoint object', async () => {
    const { repo } = await setup()
    const first = await dsh(['run', 'first prompt'], turnOne)
    const id = sessionIdOf(first.stderr)
    const unknown = await dsh(['rewind', 'no-such-session', '--to', '1'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/^dsh: no session "no-such-session"/m)
    const range = await dsh(['rewind', id, '--to', '5'])
    expect(range.code).toBe(1)
    expect(range.stderr).toContain('turn 5 is out of range: session')
    const usage = await dsh(['rewind', id])
    expect(usage.code).toBe(2)
    const objects = tree.path(`home/checkpoints/${id}/objects`)
    const text = readFileSync(tree.path(`home/checkpoints/${id}/turns/1.jsonl`), 'utf8')
    const blob = new RegExp(`"${join(repo, 'src/deep.ts')}":\\{[^}]*"before":\\{"kind":"file","blob":"([0-9a-f]{64})"`).exec(text)?.[1] ?? ''
    expect(blob).not.toBe('')
    rmSync(join(objects, blob.slice(0, 2), blob.slice(2)))
    const now = snapshot(repo)
    const missing = await dsh(['rewind', id, '--to', '1'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(`checkpoint object ${join(objects, blob.slice(0, 2), blob.slice(2))} for ${join(repo, 'src/deep.ts')} is missing; nothing was restored`)
    expect(snapshot(repo)).toEqual(now)
  })
})
