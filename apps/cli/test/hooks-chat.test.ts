// `/hooks` in dsh chat (piped): the hooks of a repository's .claude/settings.json listed as
// untrusted, a prompt whose bash call the untrusted guard hook does not stop, then `/hooks trust`
// and the same call blocked by it in the same chat, with no restart.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const guard = 'cmd=$(jq -r .tool_input.command); case "$cmd" in rm*) echo "no rm here" >&2; exit 2;; esac'

describe('/hooks in the chat', () => {
  it('lists the project hooks as untrusted; /hooks trust makes them run from the next call', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'repo/one.txt': '1\n', 'repo/two.txt': '2\n', 'scripts/': null })
    mkdirSync(tree.path('repo/.claude'))
    const settings = tree.path('repo/.claude/settings.json')
    writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] } }))
    const script = writeScript(tree.path('scripts'), 'chat.json', {
      responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'rm one.txt' } }] }, { text: 'first done' }, { toolCalls: [{ name: 'bash', arguments: { command: 'rm two.txt' } }] }, { text: 'second done' }],
    })
    const log = tree.path('requests.jsonl')
    const input = '/hooks\nremove one\n/hooks trust\n/hooks\nremove two\n/exit\n'
    const result = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log, '--permission-mode', 'full-auto'], input, { cwd: tree.root })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(`PreToolUse  Bash  ${guard}\n    project ${settings}: PreToolUse[0].hooks[0]  timeout 60 s  untrusted (/hooks trust)\n`)
    expect(result.stdout).toMatch(new RegExp(`trusted ${settings.replaceAll('/', '\\/').replaceAll('.', '\\.')} \\(sha256 [0-9a-f]{12}…\\): its hooks run from now on, until it changes\\n`))
    expect(result.stdout).toContain(`    project ${settings}: PreToolUse[0].hooks[0]  timeout 60 s  trusted\n`)
    // Untrusted, the guard did not run; trusted, it blocked the second rm in the same chat.
    expect(existsSync(tree.path('repo/one.txt'))).toBe(false)
    expect(existsSync(tree.path('repo/two.txt'))).toBe(true)
    const tools = (readRequests(log).at(-1)?.messages ?? []).filter((message) => message.role === 'tool').map((message) => message.content ?? '')
    expect(tools.at(-1)).toBe('The bash call was denied: a PreToolUse hook blocked it: no rm here. Do not retry it unchanged; choose another approach or ask the user.')
  })

  it('says so when the project has no hook files, and refuses other words', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'chat.json', { responses: [] })
    const result = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${script}`], '/hooks trust\n/hooks trust me\n/exit\n', { cwd: tree.root })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(`no project hook files in ${tree.path('repo')} (${tree.path('repo/.dsh/settings.json')}, ${tree.path('repo/.claude/settings.json')})\n`)
    expect(result.stdout).toContain('usage: /hooks [trust] (not "trust me")\n')
  })
})
