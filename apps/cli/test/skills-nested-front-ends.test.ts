// A nested skill that joined the session (its directory touched by a read) and clashes with a
// root skill is listed by the catalog as `pkg/web:deploy`; typed as `/pkg/web:deploy staging` in a
// later turn it expands to the nested body in `dsh chat`, over ACP (which advertises it after the
// turn that joined it) and in `dsh web`, through the
// built binary with the scripted model. Before the touch the qualified name expands nowhere.
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ModelScript } from '@dsh/llm-scripted'
import { killAcp, spawnAcp, type AcpProcess } from './acp-driver.ts'
import { runDshPiped } from './chat-harness.ts'
import { readRequests, writeScript, type RequestBody } from './run-dsh.ts'
import { startWeb, turnFinished, watchEvents, type WebProcess } from './web-harness.ts'

let tree: TempTree | undefined
let acp: AcpProcess | undefined
let web: WebProcess | undefined
afterEach(async () => {
  await killAcp(acp)
  acp = undefined
  await web?.stop()
  web = undefined
  await tree?.dispose()
})

const skill = (name: string, description: string, body: string): string => `---\nname: ${name}\ndescription: ${description}\n---\n${body}`

async function layout(): Promise<TempTree> {
  tree = await tempTree({
    'repo/.git/': null,
    'repo/.dsh/skills/deploy/SKILL.md': skill('deploy', 'Deploy the whole project.', 'Root deploy $1.\n'),
    'repo/pkg/web/.dsh/skills/deploy/SKILL.md': skill('deploy', 'Deploy the web package.', 'Web deploy $1 from ${SKILL_DIR}.\n'),
    'repo/pkg/web/index.ts': 'export const web = 1\n',
    'home/': null,
    'scripts/': null,
  })
  return tree
}

/** Turn 1 reads into pkg/web (the nested skill joins); turn 2 answers whatever it is sent. */
const script: ModelScript = { responses: [{ toolCalls: [{ name: 'read', arguments: { file_path: 'pkg/web/index.ts' } }] }, { text: 'read it' }, { text: 'deployed' }] }

/** The last user message of every request. */
const lastUsers = (log: string): string[] => readRequests(log, { complete: true }).map((body: RequestBody) => body.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '')

describe('/pkg/web:deploy after the nested skill joined', () => {
  it('dsh chat sends the nested body', async () => {
    const t = await layout()
    const log = t.path('chat.jsonl')
    const result = await runDshPiped(['--dsh-home', t.path('home'), 'chat', '--cwd', t.path('repo'), '--model', `scripted:${writeScript(t.path('scripts'), 'chat.json', script)}`, '--request-log', log], 'read the web package\n/pkg/web:deploy staging\n/exit\n', { cwd: t.root })
    expect(result.code, result.stderr).toBe(0)
    expect(lastUsers(log).at(-1)).toBe(`Web deploy staging from ${t.path('repo/pkg/web/.dsh/skills/deploy')}.\n`)
    expect(result.stdout).not.toContain('unknown command')
  })

  it('before the touch the chat names it unknown', async () => {
    const t = await layout()
    const log = t.path('chat.jsonl')
    const result = await runDshPiped(['--dsh-home', t.path('home'), 'chat', '--cwd', t.path('repo'), '--model', `scripted:${writeScript(t.path('scripts'), 'chat.json', script)}`, '--request-log', log], '/pkg/web:deploy staging\n/exit\n', { cwd: t.root })
    expect(result.code, result.stderr).toBe(0)
    expect(`${result.stdout}${result.stderr}`).toContain('unknown command /pkg/web:deploy')
  })

  it('ACP advertises it once it joined and expands it in the second prompt', async () => {
    const t = await layout()
    const log = t.path('acp.jsonl')
    acp = spawnAcp(['--dsh-home', t.path('home'), '--model', `scripted:${writeScript(t.path('scripts'), 'acp.json', script)}`, '--request-log', log], { cwd: t.path('repo'), home: t.root })
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: t.path('repo'), mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read the web package' }] })).toEqual({ stopReason: 'end_turn' })
    const lists = acp.updates.map((note) => note.update).flatMap((update) => (update.sessionUpdate === 'available_commands_update' ? [update.availableCommands.map((command) => command.name)] : []))
    expect(lists).toEqual([['rewind', 'init', 'deploy'], ['rewind', 'init', 'deploy', 'pkg/web:deploy']])
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/pkg/web:deploy staging' }] })).toEqual({ stopReason: 'end_turn' })
    expect(lastUsers(log).at(-1)).toBe(`Web deploy staging from ${t.path('repo/pkg/web/.dsh/skills/deploy')}.\n`)
  })

  it('dsh web expands it in the second prompt and completes it', async () => {
    const t = await layout()
    const log = t.path('web.jsonl')
    web = await startWeb(['--model', `scripted:${writeScript(t.path('scripts'), 'web.json', script)}`, '--request-log', log], { cwd: t.path('repo'), home: t.path('home') })
    const id = (await web.api<{ firstSession: string }>('GET', '/api/state')).body.firstSession
    for (const text of ['read the web package', '/pkg/web:deploy staging']) {
      const watch = await watchEvents(web, id)
      expect((await web.api('POST', `/api/sessions/${id}/prompt`, { text })).status).toBe(202)
      await watch.until(turnFinished)
      watch.close()
    }
    expect(lastUsers(log).at(-1)).toBe(`Web deploy staging from ${t.path('repo/pkg/web/.dsh/skills/deploy')}.\n`)
    const commands = await web.api<{ commands: { name: string }[] }>('GET', `/api/sessions/${id}/commands`)
    expect(commands.body.commands.map((command) => command.name)).toEqual(expect.arrayContaining(['deploy', 'pkg/web:deploy']))
  })
})
