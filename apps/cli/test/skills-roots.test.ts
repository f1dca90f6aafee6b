// `/name` expansion sees the skills of the session's additional roots, through the built binary with
// the scripted model: a skill defined only in an `--add-dir` root or a registered root (`dsh roots
// add`) expands in `dsh run` (text and stream-json), `dsh chat` and over ACP (`additionalDirectories`), and
// wins over a user skill of that name as the catalog says (project over user). A prompt whose first
// word is a path (`/usr/bin/x is broken`) goes as typed.
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ModelScript } from '@dsh/llm-scripted'
import { killAcp, spawnAcp, type AcpProcess } from './acp-driver.ts'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, runDsh, writeScript, type RequestBody } from './run-dsh.ts'

let tree: TempTree | undefined
let acp: AcpProcess | undefined
afterEach(async () => {
  await killAcp(acp)
  acp = undefined
  await tree?.dispose()
})

const skill = (name: string, description: string, body: string): string => `---\nname: ${name}\ndescription: ${description}\n---\n${body}`

async function layout(): Promise<TempTree> {
  tree = await tempTree({
    'repo/.git/': null,
    'repo/src/index.ts': 'export {}\n',
    'lib/.dsh/skills/deploy/SKILL.md': skill('deploy', 'Deploy from the lib root.', 'Deploy $1 from ${SKILL_DIR}.\n'),
    'home/skills/deploy/SKILL.md': skill('deploy', 'A user deploy.', 'User deploy $1.\n'),
    'scripts/': null,
  })
  return tree
}

let count = 0
async function run(t: TempTree, prompt: string, extra: readonly string[] = []) {
  const file = writeScript(t.path('scripts'), `s${++count}.json`, { responses: [{ text: 'ok' }] } satisfies ModelScript)
  const log = t.path(`requests-${count}.jsonl`)
  const result = await runDsh(['--dsh-home', t.path('home'), 'run', '--cwd', t.path('repo'), '--model', `scripted:${file}`, '--request-log', log, ...extra, prompt], { cwd: t.root })
  return { ...result, requests: result.code === 0 ? readRequests(log) : [] }
}

const firstUser = (body: RequestBody | undefined): string | undefined => body?.messages.find((message) => message.role === 'user')?.content ?? undefined

describe('/name expansion in additional roots', () => {
  it('dsh run --add-dir R "/deploy staging" sends the root skill body (text and stream-json); project over user', async () => {
    const t = await layout()
    const text = await run(t, '/deploy staging', ['--add-dir', t.path('lib')])
    expect(text.code).toBe(0)
    expect(firstUser(text.requests[0])).toBe(`Deploy staging from ${t.path('lib/.dsh/skills/deploy')}.\n`)
    const stream = await run(t, '/deploy canary', ['--add-dir', t.path('lib'), '--output-format', 'stream-json'])
    expect(stream.code).toBe(0)
    expect(firstUser(stream.requests[0])).toBe(`Deploy canary from ${t.path('lib/.dsh/skills/deploy')}.\n`)
    // Without the root only the user skill is there.
    const alone = await run(t, '/deploy staging')
    expect(alone.code).toBe(0)
    expect(firstUser(alone.requests[0])).toBe('User deploy staging.\n')
  })

  it('a registered root (dsh roots add) counts too', async () => {
    const t = await layout()
    expect((await runDsh(['--dsh-home', t.path('home'), 'roots', 'add', t.path('lib')], { cwd: t.path('repo') })).code).toBe(0)
    const text = await run(t, '/deploy prod')
    expect(text.code).toBe(0)
    expect(firstUser(text.requests[0])).toBe(`Deploy prod from ${t.path('lib/.dsh/skills/deploy')}.\n`)
  })

  it('a first word with another / that names nothing is sent as typed; a plain unknown /word is still exit 2', async () => {
    const t = await layout()
    const path = await run(t, '/usr/bin/x is broken')
    expect(path.code).toBe(0)
    expect(firstUser(path.requests[0])).toBe('/usr/bin/x is broken')
    const unknown = await run(t, '/nope now')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('dsh: unknown command /nope; known: /init, /deploy')
  })

  it('dsh chat --add-dir R lists /deploy with /skills and expands it', async () => {
    const t = await layout()
    const script = writeScript(t.path('scripts'), 'chat.json', { responses: [{ text: 'deployed' }] })
    const log = t.path('chat-requests.jsonl')
    const result = await runDshPiped(['--dsh-home', t.path('home'), 'chat', '--cwd', t.path('repo'), '--add-dir', t.path('lib'), '--model', `scripted:${script}`, '--request-log', log], '/deploy qa\n/skills\n/exit\n', { cwd: t.root })
    expect(result.code).toBe(0)
    expect(firstUser(readRequests(log)[0])).toBe(`Deploy qa from ${t.path('lib/.dsh/skills/deploy')}.\n`)
    expect(result.stdout).toContain(t.path('lib/.dsh/skills/deploy/SKILL.md'))
  })

  it('over ACP a session with additionalDirectories advertises and expands the root skill', async () => {
    const t = await layout()
    const script = writeScript(t.root, 'acp.json', { responses: [{ text: 'deployed' }] })
    acp = spawnAcp(['--dsh-home', t.path('home'), '--model', `scripted:${script}`, '--request-log', t.path('acp.jsonl')], { cwd: t.path('repo'), home: t.root })
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: t.path('repo'), additionalDirectories: [t.path('lib')], mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/deploy staging' }] })).toEqual({ stopReason: 'end_turn' })
    const advertised = acp.updates.map((note) => note.update).filter((update) => update.sessionUpdate === 'available_commands_update')
    expect(advertised).toHaveLength(1)
    expect(JSON.stringify(advertised[0])).toContain('{"name":"deploy","description":"Deploy from the lib root."}')
    expect(firstUser(readRequests(t.path('acp.jsonl'))[0])).toBe(`Deploy staging from ${t.path('lib/.dsh/skills/deploy')}.\n`)
  })
})
